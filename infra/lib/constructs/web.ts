import fs from 'node:fs';
import path from 'node:path';
import { DefaultStackSynthesizer, Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import type { WebConfig } from '@portal/shared';

export interface WebProps {
  readonly retain: boolean;
}

export interface PublishProps {
  /** The built web app (web/dist). Deployed only when it holds an index.html. */
  readonly distDir: string;
  /** Written as /config.json, so one build serves every stage. */
  readonly config: WebConfig;
}

/**
 * The web app: a private bucket read by CloudFront through origin access control, with SPA fallback.
 * `publish` deploys the build and config.json; it is separate because the config names the API, which
 * in turn lists this distribution's origin for CORS.
 */
export class Web extends Construct {
  readonly bucket: s3.Bucket;
  readonly logs: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** Whether `publish` found a build to deploy (otherwise only config.json is deployed). */
  siteDeployed = false;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    const removalPolicy = props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    // CloudFront standard logs are delivered with ACLs, hence BUCKET_OWNER_PREFERRED on this bucket only.
    this.logs = new s3.Bucket(this, 'Logs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(props.retain ? 365 : 30) }],
      removalPolicy,
    });
    Validations.of(this.logs).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This is the access-log destination of the site bucket and the distribution; logging it into itself would loop.',
    });

    this.bucket = new s3.Bucket(this, 'Site', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: 'site/',
      removalPolicy,
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Portal de Proveedores',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
      },
      // Client-side routes (/invoices/...) are not objects: S3 answers 403 through OAC, 404 without.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logs,
      logFilePrefix: 'cloudfront/',
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR4',
        reason: 'No custom domain yet: the default *.cloudfront.net certificate cannot pin a minimum TLS version.',
      },
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Suppliers may connect from any country; no geographic restriction applies.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason: 'The distribution serves only static files; the WAF decision is part of the production hardening.',
      },
    );
  }

  /** Origin of the site (scheme and host), for CORS. */
  get origin(): string {
    return `https://${this.distribution.distributionDomainName}`;
  }

  publish(props: PublishProps): void {
    const hasBuild = fs.existsSync(path.join(props.distDir, 'index.html'));
    let site: s3deploy.BucketDeployment | undefined;
    if (hasBuild) {
      site = new s3deploy.BucketDeployment(this, 'DeploySite', {
        sources: [s3deploy.Source.asset(props.distDir, { exclude: ['config.json'] })],
        destinationBucket: this.bucket,
        // Keep the previous build's hashed chunks: browsers holding the old index.html still load them.
        prune: false,
        distribution: this.distribution,
        distributionPaths: ['/index.html'],
      });
    }
    this.siteDeployed = hasBuild;

    const config = new s3deploy.BucketDeployment(this, 'DeployConfig', {
      sources: [s3deploy.Source.jsonData('config.json', props.config)],
      destinationBucket: this.bucket,
      prune: false,
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/config.json'],
    });
    if (site) config.node.addDependency(site);
    this.acknowledgeDeploymentHandler(config);
  }

  /**
   * BucketDeployment runs a CDK-provided singleton function whose role and runtime we do not choose.
   * Its findings are acknowledged on the role and on the function objects, one by one.
   */
  private acknowledgeDeploymentHandler(deployment: s3deploy.BucketDeployment): void {
    const stack = Stack.of(this);
    const siteLogicalId = stack.getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket);
    const qualifier =
      stack.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
    const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    // With a concrete region the partition is concrete too ('aws'), and cdk-nag prints it as such.
    const partition = Token.isUnresolved(stack.partition) ? '<AWS::Partition>' : stack.partition;
    const reason =
      'CDK BucketDeployment handler: copies the build from the CDK asset bucket into the site bucket and invalidates the distribution; its policy is generated by CDK.';
    Validations.of(deployment.handlerRole).acknowledge(
      ...[
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'AwsSolutions-IAM5[Action::s3:GetBucket*]',
        'AwsSolutions-IAM5[Action::s3:GetObject*]',
        'AwsSolutions-IAM5[Action::s3:List*]',
        'AwsSolutions-IAM5[Action::s3:Abort*]',
        'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
        `AwsSolutions-IAM5[Resource::arn:${partition}:s3:::cdk-${qualifier}-assets-${account}-${region}/*]`,
        `AwsSolutions-IAM5[Resource::<${siteLogicalId}.Arn>/*]`,
        'AwsSolutions-IAM5[Resource::*]',
      ].map((id) => ({ id, reason })),
    );
    // The singleton function lives at stack level; it is the one function running under the handler role.
    for (const child of stack.node.children) {
      if (child instanceof lambda.Function && child.role === deployment.handlerRole) {
        Validations.of(child).acknowledge({
          id: 'AwsSolutions-L1',
          reason: 'The BucketDeployment handler runtime is fixed by aws-cdk-lib and moves with its upgrades.',
        });
      }
    }
  }
}

import fs from 'node:fs';
import path from 'node:path';
import { DefaultStackSynthesizer, Duration, Fn, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { logBucket } from './log-bucket.js';
import { HEADERS, type WebConfig } from '@portal/shared';
import { API_PATH_PREFIX } from './firewall.js';

export interface WebProps {
  readonly retain: boolean;
  /** The stage's AWS WAF web ACL (CloudFront scope, us-east-1). */
  readonly webAclArn: string;
  /** The site's custom domain and its us-east-1 ACM certificate; absent: the *.cloudfront.net name only. */
  readonly customDomain?: { readonly domainName: string; readonly certificateArn: string };
  /** The Content-Security-Policy of the site (shared contentSecurityPolicy). */
  readonly contentSecurityPolicy: string;
}

/**
 * History routing without error pages: a path whose last segment has no extension is a route of the app,
 * answered with index.html. Only on the site's behaviour, so the API's 403 and 404 reach the app untouched.
 */
const SPA_ROUTING = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

export interface PublishProps {
  /** The built web app (web/dist). Deployed only when it holds an index.html. */
  readonly distDir: string;
  /** Written as /config.json, so one build serves every stage. */
  readonly config: WebConfig;
}

/**
 * The web app: a private bucket read by CloudFront through origin access control, with SPA routing,
 * the security headers (CSP) and the stage's WAF web ACL. `routeApi` puts the HTTP API under /api on the
 * same distribution (so every API call passes the WAF); `publish` deploys the build and config.json.
 */
export class Web extends Construct {
  readonly bucket: s3.Bucket;
  readonly logs: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly securityHeaders: cloudfront.ResponseHeadersPolicy;
  /** Origin users open (the custom domain, else the distribution's name): the API lives at `${origin}/api`. */
  readonly origin: string;
  /** Whether `publish` found a build to deploy (otherwise only config.json is deployed). */
  siteDeployed = false;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    const removalPolicy = props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    // CloudFront standard logs are delivered with ACLs, hence BUCKET_OWNER_PREFERRED on this bucket only.
    this.logs = logBucket(this, 'Logs', {
      retain: props.retain,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      noAccessLogsReason:
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

    this.securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Portal de Proveedores: CSP and security headers of the site',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: props.contentSecurityPolicy, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()', override: true },
        ],
      },
    });

    const domain = props.customDomain;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Portal de Proveedores',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.securityHeaders,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, 'SpaRouting', {
              comment: 'Routes of the web app answer index.html',
              code: cloudfront.FunctionCode.fromInline(SPA_ROUTING),
              runtime: cloudfront.FunctionRuntime.JS_2_0,
            }),
          },
        ],
      },
      domainNames: domain ? [domain.domainName] : undefined,
      certificate: domain ? acm.Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn) : undefined,
      minimumProtocolVersion: domain ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      webAclId: props.webAclArn,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logs,
      logFilePrefix: 'cloudfront/',
    });
    this.origin = domain ? `https://${domain.domainName}` : `https://${this.distribution.distributionDomainName}`;
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'Suppliers may connect from any country; no geographic restriction applies.',
    });
    if (!domain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Stage without a custom domain: the default *.cloudfront.net certificate cannot pin a minimum TLS version (set domainName and certificateArn).',
      });
    }
  }

  /**
   * Serves the HTTP API under /api on this distribution: never cached, every viewer header (the bearer token,
   * the WAF token) forwarded, and the origin-verify header the functions require, so a call that skips
   * CloudFront and its WAF is refused.
   */
  routeApi(props: { readonly apiEndpoint: string; readonly originVerifyToken: string }): void {
    const apiDomain = Fn.select(2, Fn.split('/', props.apiEndpoint));
    this.distribution.addBehavior(
      `${API_PATH_PREFIX}/*`,
      new origins.HttpOrigin(apiDomain, {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        customHeaders: { [HEADERS.originVerify]: props.originVerifyToken },
      }),
      {
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        // With caching disabled this policy also forwards Authorization; the Host header stays API Gateway's.
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
    );
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

import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { FILE_LINKS_ENV, FILE_SANDBOX_POLICY } from '@portal/shared';
import type { PortalFunction } from './portal-function.js';

export interface FilesProps {
  /** The documents bucket: the distribution's origin, reached with the links' own S3 signatures. */
  readonly documents: s3.IBucket;
  /** Where the distribution's standard logs go (the web app's log bucket). */
  readonly logs: s3.IBucket;
  /** The stage's AWS WAF web ACL (CloudFront scope, us-east-1). */
  readonly webAclArn: string;
}

/**
 * Sets the sandboxing policy on every answer that is not a PDF (see fileResponseHeaders in @portal/shared:
 * the same rule, which the local S3 stand-in applies). A response-headers policy cannot depend on the type.
 */
const SANDBOX_UNLESS_PDF = `function handler(event) {
  var response = event.response;
  var type = response.headers['content-type'] ? response.headers['content-type'].value : '';
  if (type.split(';')[0].trim().toLowerCase() !== 'application/pdf') {
    response.headers['content-security-policy'] = { value: ${JSON.stringify(FILE_SANDBOX_POLICY)} };
  }
  return response;
}`;

/**
 * The download links of users' files: a distribution of their own, on another origin than the
 * portal, in front of the documents bucket. It holds no credentials: a link is an S3 presigned GET signed for the
 * bucket's regional domain, which CloudFront forwards whole (every query parameter, the Host header its origin's)
 * and never caches, so S3 still checks each signature and its expiry. Its answers are never sniffed, never framed,
 * and sandboxed unless they are a PDF.
 */
export class Files extends Construct {
  readonly distribution: cloudfront.Distribution;
  /** The links' origin, `https://<distribution>.cloudfront.net`. */
  readonly origin: string;
  private readonly bucketDomain: string;

  constructor(scope: Construct, id: string, props: FilesProps) {
    super(scope, id);
    this.bucketDomain = props.documents.bucketRegionalDomainName;

    const headers = new cloudfront.ResponseHeadersPolicy(this, 'FileHeaders', {
      comment: 'Portal de Proveedores: user files are never sniffed nor framed',
      securityHeadersBehavior: {
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
      },
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Portal de Proveedores: download links of documents',
      defaultBehavior: {
        origin: new origins.HttpOrigin(this.bucketDomain, {
          protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        // Every query parameter (the signature and the response-content-* overrides); the Host stays S3's.
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: headers,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_RESPONSE,
            function: new cloudfront.Function(this, 'SandboxUnlessPdf', {
              comment: 'A file that is not a PDF is served under a sandboxing Content-Security-Policy',
              code: cloudfront.FunctionCode.fromInline(SANDBOX_UNLESS_PDF),
              runtime: cloudfront.FunctionRuntime.JS_2_0,
            }),
          },
        ],
      },
      webAclId: props.webAclArn,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: props.logs,
      logFilePrefix: 'files/',
    });
    this.origin = `https://${this.distribution.distributionDomainName}`;
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'Suppliers may connect from any country; no geographic restriction applies.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        'The links live on the default *.cloudfront.net name, whose certificate cannot pin a minimum TLS version.',
    });
  }

  /** Makes the function's download links go through this distribution (documentsBucketFromEnv reads them). */
  bindLinks(fn: PortalFunction): void {
    fn.function.addEnvironment(FILE_LINKS_ENV.origin, this.origin);
    fn.function.addEnvironment(FILE_LINKS_ENV.bucketDomain, this.bucketDomain);
  }
}

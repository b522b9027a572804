import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

export interface LogBucketProps {
  readonly retain: boolean;
  /** BUCKET_OWNER_PREFERRED where the writer delivers with ACLs (CloudFront standard logs), else ENFORCED. */
  readonly objectOwnership: s3.ObjectOwnership;
  /** Why the bucket logs no access of its own (cdk-nag AwsSolutions-S1). */
  readonly noAccessLogsReason: string;
}

/** A private bucket receiving access logs: kept a year where data is retained, a month elsewhere. */
export function logBucket(scope: Construct, id: string, props: LogBucketProps): s3.Bucket {
  const bucket = new s3.Bucket(scope, id, {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: props.objectOwnership,
    lifecycleRules: [{ expiration: Duration.days(props.retain ? 365 : 30) }],
    removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
  Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: props.noAccessLogsReason });
  return bucket;
}

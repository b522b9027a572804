import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { BUCKETS } from '@portal/shared';
import { retentionDays } from '../stage-config.js';
import type { PortalFunction } from './portal-function.js';

export interface StorageProps {
  readonly retain: boolean;
  /** Origin of the web app: the browser uploads documents straight to the bucket with presigned POSTs. */
  readonly webOrigin: string;
  /** Years every version of a document is kept (stage configuration, Código Tributario art. 87). */
  readonly retentionYears: number;
}

/** The documents bucket (XML, PDF, attachments) and the bucket receiving the access logs of the product's buckets. */
export class Storage extends Construct {
  readonly documents: s3.Bucket;
  readonly accessLogs: s3.Bucket;
  /**
   * Object read/write on the documents bucket. A managed policy in this stack rather than per-function
   * grants: the object wildcard is then stated (and acknowledged) once, next to the bucket it names.
   */
  readonly documentsReadWrite: iam.ManagedPolicy;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    const removalPolicy = props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(props.retain ? 365 : 30) }],
      removalPolicy,
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log destination; logging it into itself would loop.',
    });

    this.documents = new s3.Bucket(this, BUCKETS.documents.id, {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'documents/',
      lifecycleRules: [
        // A browser upload that never completes leaves parts behind that cost money and are never read.
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // A document is never expired while current; an overwritten or deleted one stays recoverable (its
        // earlier version) for the whole retention period, then goes (docs/adr/0015-documents-kept.md).
        {
          id: 'KeepOldVersionsForTaxRetention',
          noncurrentVersionExpiration: Duration.days(retentionDays(props.retentionYears)),
        },
      ],
      cors: [
        {
          allowedOrigins: [props.webOrigin],
          allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD, s3.HttpMethods.POST, s3.HttpMethods.PUT],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3000,
        },
      ],
      removalPolicy,
    });

    // No one, the functions and the console included, removes a version before the lifecycle rule does (the
    // lifecycle is not subject to bucket policies): a deletion only puts a delete marker over the kept version.
    // Lifting this is a reviewed change of this code.
    this.documents.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'KeepDocumentVersionsForTaxRetention',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['s3:DeleteObjectVersion'],
        resources: [this.documents.arnForObjects('*')],
      }),
    );

    this.documentsReadWrite = new iam.ManagedPolicy(this, 'DocumentsReadWrite', {
      description: 'Read and write objects of the documents bucket',
      statements: [
        new iam.PolicyStatement({
          actions: ['s3:GetObject', 's3:GetObjectVersion', 's3:PutObject', 's3:DeleteObject'],
          resources: [this.documents.arnForObjects('*')],
        }),
        new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.documents.bucketArn] }),
      ],
    });
    const bucketLogicalId = Stack.of(this).getLogicalId(this.documents.node.defaultChild as s3.CfnBucket);
    Validations.of(this.documentsReadWrite).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/*]`,
      reason: 'Object keys are chosen per upload (supplier, document); access is to any object of this one bucket.',
    });
  }

  /** Grants object read/write on the documents bucket and tells the function its name. */
  bindDocuments(fn: PortalFunction): void {
    fn.role.addManagedPolicy(this.documentsReadWrite);
    fn.function.addEnvironment(BUCKETS.documents.env, this.documents.bucketName);
  }
}

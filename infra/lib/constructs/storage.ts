import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { BUCKETS, DOCUMENT_OPERATIONS, RUNTIME_ENV, type DocumentOperation } from '@portal/shared';
import { retentionDays } from '../stage-config.js';
import { logBucket } from './log-bucket.js';
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
   * One managed policy per operation a function may do on the documents bucket (DocumentOperation), in this stack
   * rather than per-function grants: the object wildcard is then stated (and acknowledged) once per operation, next
   * to the bucket it names.
   */
  readonly documentPolicies: Readonly<Record<DocumentOperation, iam.ManagedPolicy>>;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    this.accessLogs = logBucket(this, 'AccessLogs', {
      retain: props.retain,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      noAccessLogsReason: 'This is the access-log destination; logging it into itself would loop.',
    });
    this.documents = this.createDocuments(props);
    this.documentPolicies = this.createDocumentPolicies();
    this.keepLegacyPolicy();
  }

  /** Every version of every document, kept for the retention period; the browser uploads to it from webOrigin. */
  private createDocuments(props: StorageProps): s3.Bucket {
    const documents = new s3.Bucket(this, BUCKETS.documents.id, {
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
        // The exports of the lists (docs/adr/0032-list-exports.md) are copies made on request, not documents:
        // gone a day after they are made, every version, and any part of an upload that never completed.
        {
          id: 'ExpireListExports',
          prefix: EXPORTS_PREFIX,
          expiration: Duration.days(1),
          noncurrentVersionExpiration: Duration.days(1),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
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
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    // No one, the functions and the console included, removes a version before the lifecycle rule does (the
    // lifecycle is not subject to bucket policies): a deletion only puts a delete marker over the kept version.
    // Lifting this is a reviewed change of this code.
    documents.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'KeepDocumentVersionsForTaxRetention',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['s3:DeleteObjectVersion'],
        resources: [documents.arnForObjects('*')],
      }),
    );
    return documents;
  }

  /** One managed policy per operation on the documents bucket, its object wildcard acknowledged once. */
  private createDocumentPolicies(): Record<DocumentOperation, iam.ManagedPolicy> {
    const statements = documentStatements(this.documents);
    const bucketLogicalId = Stack.of(this).getLogicalId(this.documents.node.defaultChild as s3.CfnBucket);
    return Object.fromEntries(
      DOCUMENT_OPERATIONS.map((operation) => {
        const policy = new iam.ManagedPolicy(this, `Documents${pascal(operation)}`, statements[operation]);
        const exportsOnly = operation === 'exportWrite' || operation === 'exportDownload';
        Validations.of(policy).acknowledge(
          exportsOnly
            ? {
                id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/${EXPORTS_PREFIX}*]`,
                reason: 'An export is keyed per user and job; access is to the exports/ prefix of this one bucket.',
              }
            : {
                id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/*]`,
                reason:
                  'Object keys are chosen per upload (supplier, document); access is to any object of this one bucket.',
              },
        );
        return [operation, policy];
      }),
    ) as Record<DocumentOperation, iam.ManagedPolicy>;
  }

  /**
   * The read-write policy every function had before the per-operation ones: the stateless stack of a stage
   * deployed earlier still imports its ARN, and CloudFormation refuses to drop an export in use. Kept, attached to
   * nothing, until every stage has deployed this version once (docs/permissions.md); then deleted.
   */
  private keepLegacyPolicy(): void {
    const legacy = new iam.ManagedPolicy(this, 'DocumentsReadWrite', {
      // Its description must stay as it was: a new one would replace the policy, and change the export.
      description: 'Read and write objects of the documents bucket',
      statements: [new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.documents.bucketArn] })],
    });
    Stack.of(this).exportValue(legacy.managedPolicyArn);
  }

  /**
   * Grants exactly `operations` on the documents bucket and tells the function its name and addressing (the
   * download links' origin is the Files construct's, bound with presignDownload).
   */
  bindDocuments(fn: PortalFunction, operations: readonly DocumentOperation[]): void {
    for (const operation of new Set(operations)) fn.role.addManagedPolicy(this.documentPolicies[operation]);
    fn.function.addEnvironment(BUCKETS.documents.env, this.documents.bucketName);
    fn.function.addEnvironment(RUNTIME_ENV.s3ForcePathStyle, 'false');
  }
}

/** Where the exports of the lists are written (the key is exports/<user>/<export>.<format>). */
const EXPORTS_PREFIX = 'exports/';

/** What each operation on the documents bucket may do, and its policy's description. */
function documentStatements(
  documents: s3.Bucket,
): Record<DocumentOperation, { description: string; statements: iam.PolicyStatement[] }> {
  const objects = documents.arnForObjects('*');
  return {
    read: {
      description: 'Read objects of the documents bucket (HEAD, ranges); ListBucket makes a missing key a 404',
      statements: [
        new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [objects] }),
        new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [documents.bucketArn] }),
      ],
    },
    delete: {
      description: 'Delete objects of the documents bucket (a delete marker: versions are kept)',
      statements: [new iam.PolicyStatement({ actions: ['s3:DeleteObject'], resources: [objects] })],
    },
    presignUpload: {
      description: "Sign the browser's POST uploads to the documents bucket",
      statements: [new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [objects] })],
    },
    presignDownload: {
      description: 'Sign download links to objects of the documents bucket',
      statements: [new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [objects] })],
    },
    exportWrite: {
      description: 'Write the exports of the lists (multipart uploads) under exports/ of the documents bucket',
      statements: [
        new iam.PolicyStatement({
          actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
          resources: [documents.arnForObjects(`${EXPORTS_PREFIX}*`)],
        }),
      ],
    },
    exportDownload: {
      description: 'Sign download links to the exports of the lists (exports/ of the documents bucket)',
      statements: [
        new iam.PolicyStatement({
          actions: ['s3:GetObject'],
          resources: [documents.arnForObjects(`${EXPORTS_PREFIX}*`)],
        }),
      ],
    },
  };
}

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

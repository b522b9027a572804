import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sesActions from 'aws-cdk-lib/aws-ses-actions';
import { Construct } from 'constructs';
import { BUCKETS, INBOUND_MAIL, RUNTIME_ENV } from '@portal/shared';
import type { PortalFunction } from './portal-function.js';

export interface InboundMailProps {
  readonly retain: boolean;
  /** Where the bucket's access logs go (the Storage construct's log bucket). */
  readonly accessLogs: s3.IBucket;
  /** The intake addresses' domain, or null when the stage receives no e-mail. */
  readonly domain: string | null;
}

/**
 * Where SES writes the e-mails it receives for the intake addresses (docs/adr/0035-mail-intake.md): a
 * bucket of its own, unversioned, whose raw messages the worker deletes once processed; what is left (a message
 * whose processing failed for good) expires after a few days. Nothing else is ever stored here.
 */
export class InboundMail extends Construct {
  readonly bucket: s3.Bucket;
  readonly domain: string | null;
  /** Read and delete the raw messages (inbound-mail/ only): the worker's, stated once beside the bucket. */
  readonly readAndDelete: iam.ManagedPolicy;

  constructor(scope: Construct, id: string, props: InboundMailProps) {
    super(scope, id);
    this.domain = props.domain;
    this.bucket = new s3.Bucket(this, BUCKETS.inboundMail.id, {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'inbound-mail/',
      lifecycleRules: [{ id: 'ExpireUnprocessedMail', expiration: Duration.days(INBOUND_MAIL_KEPT_DAYS) }],
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.readAndDelete = new iam.ManagedPolicy(this, 'ReadAndDelete', {
      description: 'Read and delete the received e-mails (inbound-mail/ of the inbound-mail bucket)',
      statements: [
        new iam.PolicyStatement({
          actions: ['s3:GetObject', 's3:DeleteObject'],
          resources: [this.bucket.arnForObjects(`${INBOUND_MAIL.prefix}*`)],
        }),
      ],
    });
    const bucketLogicalId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket);
    Validations.of(this.readAndDelete).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/${INBOUND_MAIL.prefix}*]`,
      reason:
        "A received e-mail is keyed by SES's message id; access is to the inbound-mail/ prefix of this one bucket.",
    });
  }

  /** Reads and deletes the raw messages (inbound-mail/ only) and tells the function the bucket and the domain. */
  bind(fn: PortalFunction): void {
    fn.role.addManagedPolicy(this.readAndDelete);
    fn.function.addEnvironment(BUCKETS.inboundMail.env, this.bucket.bucketName);
    fn.function.addEnvironment(RUNTIME_ENV.intakeMailDomain, this.domain ?? '');
    fn.function.addEnvironment(RUNTIME_ENV.s3ForcePathStyle, 'false');
  }
}

/** Days an unprocessed raw message is kept (the inboundMail DLQ keeps its message 14 days; redrive within 3). */
export const INBOUND_MAIL_KEPT_DAYS = 3;

export interface MailReceivingProps {
  readonly inboundMail: InboundMail;
  readonly domain: string;
  /** The rule set's name (naming.ts): the account's active one is chosen by an operator (docs/deploying.md). */
  readonly ruleSetName: string;
  /** The function SES invokes after writing the message: it sends the inboundMail queue its message. */
  readonly receiptFunction: PortalFunction;
}

/**
 * SES receiving for the intake domain: a receipt rule set whose one rule takes mail for any address of the domain,
 * scans it for spam and viruses, writes it to inbound-mail/ of the inbound-mail bucket, then invokes the receipt
 * function (which reads SES's SPF, DKIM and DMARC verdicts from its event). The rule set is not made active here:
 * an account has one active rule set per region (docs/deploying.md, "Receiving invoices by e-mail").
 */
export class MailReceiving extends Construct {
  readonly ruleSet: ses.ReceiptRuleSet;

  constructor(scope: Construct, id: string, props: MailReceivingProps) {
    super(scope, id);
    this.ruleSet = new ses.ReceiptRuleSet(this, 'RuleSet', { receiptRuleSetName: props.ruleSetName });
    this.ruleSet.addRule('Intake', {
      receiptRuleName: 'intake',
      recipients: [props.domain],
      scanEnabled: true,
      tlsPolicy: ses.TlsPolicy.OPTIONAL,
      actions: [
        new sesActions.S3({ bucket: props.inboundMail.bucket, objectKeyPrefix: INBOUND_MAIL.prefix }),
        new sesActions.Lambda({
          function: props.receiptFunction.function,
          invocationType: sesActions.LambdaInvocationType.EVENT,
        }),
      ],
    });
  }
}

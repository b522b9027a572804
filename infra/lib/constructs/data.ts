import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { RUNTIME_ENV, TABLE, keys, type TableAccess } from '@portal/shared';
import { retentionDays } from '../stage-config.js';
import type { PortalFunction } from './portal-function.js';

export interface DataProps {
  readonly retain: boolean;
  /** Years the table's monthly backups are kept (stage configuration, Código Tributario art. 87). */
  readonly retentionYears: number;
}

/** The most point-in-time recovery keeps (DynamoDB's limit): any second of the last 35 days. */
export const PITR_DAYS = 35;

const READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
// Transactions need no actions of their own: TransactWriteItems is authorised per contained Put/Update/Delete.
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/**
 * The audit records (the administrators' log and every invoice's trail, partitions `AUDIT#…`) are append-only:
 * no function may update or delete one, whatever else it is granted. IAM checks each write of a transaction or a
 * batch as the single action (a BatchWriteItem delete as DeleteItem), so these cover them too.
 */
export const AUDIT_APPEND_ONLY = {
  actions: ['dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  leadingKeys: [`${keys.auditPrefix}*`],
} as const;

/** The single table of the product, shaped by shared TABLE (the repositories and the local stage read it too). */
export class Data extends Construct {
  readonly table: dynamodb.Table;
  readonly backupPlan: backup.BackupPlan;
  readonly backupVault: backup.BackupVault;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);

    this.table = new dynamodb.Table(this, TABLE.logicalName, {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: PITR_DAYS },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: props.retain,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    this.backupVault = new backup.BackupVault(this, 'BackupVault', {
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.backupPlan = this.planBackups(props.retentionYears);

    // The retired indexes stay on a deployed table until they are deleted, one per deploy (ADR 0044); in the order of
    // their names, as the table was first deployed.
    const indexes = [...Object.values(TABLE.indexes), ...Object.values(TABLE.retiredIndexes)].sort(
      (a, b) => Number(a.name.slice(3)) - Number(b.name.slice(3)),
    );
    for (const index of indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
  }

  /**
   * Point-in-time recovery covers the last 35 days to the second; AWS Backup keeps what tax law may ask for
   * longer: a daily backup kept 35 days and a monthly one kept the retention period, in a vault of the stack
   * (docs/deploying.md, "Restoring data").
   */
  private planBackups(retentionYears: number): backup.BackupPlan {
    const plan = new backup.BackupPlan(this, 'BackupPlan', {
      backupVault: this.backupVault,
      backupPlanRules: [
        new backup.BackupPlanRule({
          ruleName: 'Daily',
          scheduleExpression: events.Schedule.cron({ hour: '5', minute: '0' }),
          deleteAfter: Duration.days(PITR_DAYS),
        }),
        new backup.BackupPlanRule({
          ruleName: 'MonthlyForTaxRetention',
          scheduleExpression: events.Schedule.cron({ day: '1', hour: '6', minute: '0' }),
          deleteAfter: Duration.days(retentionDays(retentionYears)),
        }),
      ],
    });
    const selection = plan.addSelection('Table', {
      resources: [backup.BackupResource.fromDynamoDbTable(this.table)],
    });
    Validations.of(selection).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
      reason: "AWS Backup's own service-role policy for taking backups, maintained by AWS as the service changes.",
    });
    Validations.of(selection).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForRestores]',
      reason: "AWS Backup's own service-role policy for restores, maintained by AWS as the service changes.",
    });
    return plan;
  }

  /**
   * Grants the table and each named index (no `index/*` wildcard) and tells the function the table name.
   * Scan is deliberately absent: listing goes through the indexes.
   */
  bindTable(fn: PortalFunction, access: Exclude<TableAccess, 'none'>): void {
    const indexArns = Object.values(TABLE.indexes).map((index) =>
      Stack.of(this).formatArn({
        service: 'dynamodb',
        resource: 'table',
        resourceName: `${this.table.tableName}/index/${index.name}`,
      }),
    );
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: access === 'write' ? [...READ_ACTIONS, ...WRITE_ACTIONS] : READ_ACTIONS,
        resources: [this.table.tableArn, ...indexArns],
      }),
    );
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        effect: iam.Effect.DENY,
        actions: [...AUDIT_APPEND_ONLY.actions],
        resources: [this.table.tableArn],
        conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...AUDIT_APPEND_ONLY.leadingKeys] } },
      }),
    );
    fn.function.addEnvironment(RUNTIME_ENV.tableName, this.table.tableName);
  }

  /**
   * An API client's call counter (FunctionUses.apiClientRate): UpdateItem on the RATE# items only, for a function
   * that otherwise may only read (the routes a machine client calls).
   */
  bindRateCounter(fn: PortalFunction): void {
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [this.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${keys.apiClientRatePrefix}*`] } },
      }),
    );
  }
}

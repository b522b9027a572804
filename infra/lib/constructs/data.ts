import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { RUNTIME_ENV, TABLE } from '@portal/shared';
import type { PortalFunction } from './portal-function.js';

export interface DataProps {
  readonly retain: boolean;
}

export type TableAccess = 'r' | 'rw';

const READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
// Transactions need no actions of their own: TransactWriteItems is authorised per contained Put/Update/Delete.
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/** The single table of the product, shaped by shared TABLE (the repositories and the local stage read it too). */
export class Data extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);

    this.table = new dynamodb.Table(this, TABLE.logicalName, {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: props.retain,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    for (const index of Object.values(TABLE.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
  }

  /**
   * Grants the table and each named index (no `index/*` wildcard) and tells the function the table name.
   * Scan is deliberately absent: listing goes through the indexes.
   */
  bindTable(fn: PortalFunction, access: TableAccess): void {
    const indexArns = Object.values(TABLE.indexes).map((index) =>
      Stack.of(this).formatArn({
        service: 'dynamodb',
        resource: 'table',
        resourceName: `${this.table.tableName}/index/${index.name}`,
      }),
    );
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: access === 'rw' ? [...READ_ACTIONS, ...WRITE_ACTIONS] : READ_ACTIONS,
        resources: [this.table.tableArn, ...indexArns],
      }),
    );
    fn.function.addEnvironment(RUNTIME_ENV.tableName, this.table.tableName);
  }
}

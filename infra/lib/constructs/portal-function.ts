import { Duration, RemovalPolicy, Tags, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** Tag every PortalFunction carries, valued with its name: tests and operators find the product's functions by it. */
export const PORTAL_FUNCTION_TAG = 'portal:function';

/**
 * ESM bundles have no `require`; some dependencies (parts of the AWS SDK) still call it for Node built-ins.
 */
const REQUIRE_SHIM =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export interface PortalFunctionProps {
  /** Stable short name: tags the function and names its log group's construct. */
  readonly name: string;
  /** Absolute path of the TypeScript module exporting `handler`. */
  readonly entry: string;
  readonly description?: string;
  readonly environment?: Readonly<Record<string, string>>;
  /** @default 512 */
  readonly memorySize?: number;
  /** @default 10 seconds (HTTP APIs give up at 30) */
  readonly timeout?: Duration;
  /** Keep the log group when the stack is deleted. */
  readonly retain: boolean;
}

/**
 * The one Lambda function shape of the product: Node.js 24 on arm64, ESM bundled by esbuild with the
 * AWS SDK inside (the bundle pins the SDK version we test against), its own log group with retention,
 * X-Ray tracing, and a role that writes only to that log group.
 */
export class PortalFunction extends Construct {
  readonly function: nodejs.NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: PortalFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.retain ? logs.RetentionDays.THREE_MONTHS : logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    // An own role instead of AWSLambdaBasicExecutionRole, whose logs:* actions apply to every log group.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Portal function ${props.name}`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new nodejs.NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      tracing: lambda.Tracing.ACTIVE,
      environment: { ...props.environment },
      bundling: {
        format: nodejs.OutputFormat.ESM,
        // Prefer ESM entry points of dependencies so tree shaking works.
        mainFields: ['module', 'main'],
        banner: REQUIRE_SHIM,
        bundleAwsSDK: true,
        externalModules: [],
        minify: true,
        // NodejsFunction also sets NODE_OPTIONS=--enable-source-maps, so stack traces point at TypeScript.
        sourceMap: true,
        sourcesContent: false,
      },
    });
    Tags.of(this.function).add(PORTAL_FUNCTION_TAG, props.name);

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions.',
    });
  }
}

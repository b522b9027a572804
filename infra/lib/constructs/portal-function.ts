import { Duration, RemovalPolicy, Size, Stack, Tags, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUNDLE_OPTIONS, esbuildArgs } from '../bundling.js';
import { FUNCTION_TELEMETRY_ENV } from '../telemetry.js';
import { RUNTIME_ENV, type FunctionUses } from '@portal/shared';

/** Context key under which a stack records its stage's log retention (see setLogRetention). */
const LOG_RETENTION_CONTEXT = 'portal:logRetentionDays';

/**
 * Records the stage's log retention on a stack, for every log group below it (PortalFunction's, the API's access
 * log...). Call it first in the stack's constructor: CDK context is fixed once a construct has children.
 */
export function setLogRetention(stack: Stack, days: number): void {
  stack.node.setContext(LOG_RETENTION_CONTEXT, days);
}

/** The log retention recorded by setLogRetention on the stack of `scope`. */
export function logRetentionOf(scope: Construct): logs.RetentionDays {
  const days: unknown = Stack.of(scope).node.tryGetContext(LOG_RETENTION_CONTEXT);
  if (typeof days !== 'number') {
    throw new Error(`${scope.node.path}: no log retention; call setLogRetention(stack, days) in the stack first`);
  }
  return days as logs.RetentionDays;
}

/**
 * The ADOT collector layer (collector only: the functions bundle their own OpenTelemetry SDK), pinned so that a
 * deployment never changes the collector by itself.
 */
export const ADOT_COLLECTOR_LAYER = lambda.AdotLambdaLayerGenericVersion.V0_115_0;

/** Tag every PortalFunction carries, valued with its name: tests and operators find the product's functions by it. */
export const PORTAL_FUNCTION_TAG = 'portal:function';

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
  /** /tmp in MB. @default 512 */
  readonly ephemeralStorageMb?: number;
  /** @default none reserved */
  readonly reservedConcurrentExecutions?: number;
  /** Keep the log group when the stack is deleted (its retention is the stage's, see setLogRetention). */
  readonly retain: boolean;
  /** The share of invocations that begin a recorded trace (0 to 1); unset, all (docs/adr/0041-trace-sampling.md). */
  readonly traceSampleRatio?: number;
}

/**
 * The one Lambda function shape of the product: Node.js 24 on arm64, ESM bundled by esbuild with the
 * AWS SDK inside (the bundle pins the SDK version we test against), its own log group with the stage's retention,
 * traced on OpenTelemetry (its spans go to the ADOT collector layer beside it, which writes them to X-Ray; the
 * function's sampler decides, Lambda's tracing passes a caller's decision through), and a role that writes only
 * to that log group and to X-Ray.
 */
export class PortalFunction extends Construct {
  readonly function: nodejs.NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: PortalFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logRetentionOf(this),
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
      ...(props.ephemeralStorageMb ? { ephemeralStorageSize: Size.mebibytes(props.ephemeralStorageMb) } : {}),
      ...(props.reservedConcurrentExecutions
        ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions }
        : {}),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      // The function decides what is traced (its sampler, telemetry.ts): Lambda's active tracing would record every
      // invocation at this traffic (its fixed 1 a second and 5%), reads included (docs/adr/0041-trace-sampling.md).
      tracing: lambda.Tracing.PASS_THROUGH,
      environment: {
        ...FUNCTION_TELEMETRY_ENV,
        ...(props.traceSampleRatio !== undefined && props.traceSampleRatio < 1
          ? { [RUNTIME_ENV.traceSampleRatio]: String(props.traceSampleRatio) }
          : {}),
        ...props.environment,
      },
      bundling: {
        format: nodejs.OutputFormat.ESM,
        target: BUNDLE_OPTIONS.target,
        mainFields: [...BUNDLE_OPTIONS.mainFields],
        banner: BUNDLE_OPTIONS.banner,
        bundleAwsSDK: true,
        externalModules: [],
        minify: BUNDLE_OPTIONS.minify,
        // The map ships beside the bundle; stack traces read it when first read (BUNDLE_OPTIONS.inject), with no
        // NODE_OPTIONS=--enable-source-maps, which would parse it at every cold start.
        sourceMap: BUNDLE_OPTIONS.sourcemap,
        inject: [...BUNDLE_OPTIONS.inject],
        sourcesContent: BUNDLE_OPTIONS.sourcesContent,
        esbuildArgs: esbuildArgs(),
      },
    });
    Tags.of(this.function).add(PORTAL_FUNCTION_TAG, props.name);
    this.function.addLayers(
      lambda.LayerVersion.fromLayerVersionArn(
        this,
        'OtelCollector',
        ADOT_COLLECTOR_LAYER.layerArn(this, lambda.Architecture.ARM_64),
      ),
    );

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "Lambda's tracing and the collector layer need xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions.",
    });
  }
}

/** Grant-and-configure of a function from its declaration (a route's, a queue consumer's or a job's `uses`). */
export type BindUses = (fn: PortalFunction, uses: FunctionUses) => void;

/** What every group of functions (the API's, the workers, the jobs) is built with. */
export interface FunctionGroupProps {
  readonly stage: string;
  readonly retain: boolean;
  /** Grant-and-configure of each function from its declaration (bindUses). */
  readonly bind: BindUses;
}

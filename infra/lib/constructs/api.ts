import path from 'node:path';
import { Duration, NestedStack, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import {
  areaOf,
  CORS,
  ROUTE_NOT_FOUND,
  RUNTIME_ENV,
  USES_NOTHING,
  type RouteArea,
  type RouteDef,
} from '@portal/shared';
import { API_PATH_PREFIX } from './firewall.js';
import { READ_TRACE_SAMPLE_RATIO } from '../telemetry.js';
import { logRetentionOf, PortalFunction, type FunctionGroupProps } from './portal-function.js';

/** `bind` takes a route's manifest declaration. */
export interface ApiProps extends FunctionGroupProps {
  readonly routes: readonly RouteDef[];
  /** Absolute path of functions/src/handlers: a route's entry is `<handlersDir>/<route.handler>.ts`. */
  readonly handlersDir: string;
  readonly userPool: cognito.IUserPool;
  readonly webClient: cognito.IUserPoolClient;
  /** Origins allowed by CORS, and told to the functions (they echo them on responses). */
  readonly webOrigins: readonly string[];
  /** The value CloudFront sends in the origin-verify header; the functions refuse requests without it. */
  readonly originVerifyToken: string;
  /** The OAuth2 token endpoint of the suppliers' API clients (the user pool domain's /oauth2/token). */
  readonly apiTokenUrl: string;
  /** Stage throttling (requests per second, burst). */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
}

/** The HTTP API's stage: its name is the first path segment, which is also CloudFront's /api behaviour. */
export const API_STAGE_NAME = API_PATH_PREFIX.slice(1);

/**
 * The HTTP API: one PortalFunction and one route per manifest entry, the Cognito JWT authorizer on every
 * 'jwt' route and none on 'public' ones. Roles and tenants are checked by the handler wrapper.
 *
 * The API, its stage, its authorizer and its routes with their integrations are in the stack of this construct; each
 * route's function (with its role, policy, log group and invoke permission) is in the nested stack of the route's
 * area of the manifest, `<Area>Functions` (docs/adr/0048-stacks-by-area.md): one route costs this stack two
 * resources, and an area's stack grows only with its own routes.
 */
export class Api extends Construct {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly functions: ReadonlyMap<string, PortalFunction>;
  /** The nested stack of each area that has routes, by area. */
  readonly areas: ReadonlyMap<RouteArea, NestedStack>;
  private readonly areaStacks = new Map<RouteArea, NestedStack>();
  private readonly stageName: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.stageName = props.stage;
    this.httpApi = this.createHttpApi(props);
    this.stage = this.createStage(props);
    const authorizer = new HttpUserPoolAuthorizer('CognitoAuthorizer', props.userPool, {
      userPoolClients: [props.webClient],
    });
    // What every API function reads: the wrapper's CORS origins and origin-verify value, the metrics' stage.
    const baseEnvironment = {
      [RUNTIME_ENV.stage]: props.stage,
      [RUNTIME_ENV.webOrigin]: props.webOrigins.join(','),
      [RUNTIME_ENV.originVerifyToken]: props.originVerifyToken,
    };
    const functions = new Map<string, PortalFunction>();
    const audienceWriters: PortalFunction[] = [];
    for (const route of props.routes) {
      const fn = this.addRoute(route, props, baseEnvironment, authorizer);
      functions.set(route.id, fn);
      if (route.uses.apiAuthorizer) audienceWriters.push(fn);
    }
    this.grantAuthorizerAudience(audienceWriters, authorizer, props.apiTokenUrl);
    functions.set(ROUTE_NOT_FOUND.id, this.addDefaultRoute(props, baseEnvironment));
    this.functions = functions;
    this.areas = this.areaStacks;
  }

  private createHttpApi(props: ApiProps): apigw.HttpApi {
    return new apigw.HttpApi(this, 'HttpApi', {
      description: `Portal de Proveedores (${props.stage})`,
      // The stage is created below, to give it access logs.
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: [...props.webOrigins],
        allowMethods: [
          apigw.CorsHttpMethod.GET,
          apigw.CorsHttpMethod.POST,
          apigw.CorsHttpMethod.PUT,
          apigw.CorsHttpMethod.DELETE,
          apigw.CorsHttpMethod.OPTIONS,
        ],
        allowHeaders: [...CORS.allowHeaders],
        exposeHeaders: [...CORS.exposeHeaders],
        maxAge: Duration.seconds(CORS.maxAgeSeconds),
      },
    });
  }

  /** The API's stage, with its access logs and throttling. */
  private createStage(props: ApiProps): apigw.HttpStage {
    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logRetentionOf(this),
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    return new apigw.HttpStage(this, 'Stage', {
      httpApi: this.httpApi,
      stageName: API_STAGE_NAME,
      autoDeploy: true,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            time: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
      throttle: props.throttle,
    });
  }

  /** The nested stack of an area's functions, created with its first route. */
  private functionsOf(area: RouteArea): NestedStack {
    let stack = this.areaStacks.get(area);
    if (!stack) {
      stack = new NestedStack(this, `${pascal(area)}Functions`, {
        description: `Portal de Proveedores (${this.stageName}): funciones del área ${area}`,
      });
      this.areaStacks.set(area, stack);
    }
    return stack;
  }

  /** A route of the manifest: its function in its area's stack, bound to what it declares, and its route. */
  private addRoute(
    route: RouteDef,
    props: ApiProps,
    baseEnvironment: Record<string, string>,
    authorizer: HttpUserPoolAuthorizer,
  ): PortalFunction {
    const fn = new PortalFunction(this.functionsOf(areaOf(route)), `${pascal(route.id)}Function`, {
      name: route.id,
      entry: path.join(props.handlersDir, `${route.handler}.ts`),
      description: `${route.method} ${route.path}`,
      environment: baseEnvironment,
      retain: props.retain,
      ...(route.method === 'GET' ? { traceSampleRatio: READ_TRACE_SAMPLE_RATIO } : {}),
    });
    // Exactly what the route's manifest entry declares it touches, no more.
    props.bind(fn, route.uses);

    const httpRoute = new apigw.HttpRoute(this, `${pascal(route.id)}Route`, {
      httpApi: this.httpApi,
      routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
      integration: new AreaLambdaIntegration(`${pascal(route.id)}Integration`, fn),
      authorizer: route.auth === 'jwt' ? authorizer : undefined,
    });
    if (route.auth === 'public') {
      Validations.of(httpRoute).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: `${route.method} ${route.path} is public by design (manifest auth 'public'): health checks and the OpenAPI document.`,
      });
    }
    return fn;
  }

  /**
   * The API clients' administration keeps the authorizer's audience equal to the web client plus the active API
   * clients (docs/adr/0034-api-clients.md): it reads and rewrites this one authorizer, nothing else of the API.
   */
  private grantAuthorizerAudience(
    audienceWriters: readonly PortalFunction[],
    authorizer: HttpUserPoolAuthorizer,
    apiTokenUrl: string,
  ): void {
    for (const fn of audienceWriters) {
      fn.function.addEnvironment(RUNTIME_ENV.apiId, this.httpApi.apiId);
      fn.function.addEnvironment(RUNTIME_ENV.apiAuthorizerId, authorizer.authorizerId);
      fn.function.addEnvironment(RUNTIME_ENV.apiTokenUrl, apiTokenUrl);
      fn.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['apigateway:GET', 'apigateway:PATCH'],
          resources: [
            Stack.of(this).formatArn({
              service: 'apigateway',
              account: '',
              resource: `/apis/${this.httpApi.apiId}/authorizers/${authorizer.authorizerId}`,
            }),
          ],
        }),
      );
    }
  }

  /**
   * Whatever no route serves (an unknown path, or a method the path does not have) goes to the `$default` route,
   * whose function answers 404 ERROR_ROUTE_NOT_FOUND in the API's error body and headers, as the local gateway
   * does; without it API Gateway would answer `{"message":"Not Found"}` itself. It touches nothing, so it is bound
   * to nothing (no table, bucket or queue).
   */
  private addDefaultRoute(props: ApiProps, baseEnvironment: Record<string, string>): PortalFunction {
    const notFound = new PortalFunction(this.functionsOf('platform'), `${pascal(ROUTE_NOT_FOUND.id)}Function`, {
      name: ROUTE_NOT_FOUND.id,
      entry: path.join(props.handlersDir, `${ROUTE_NOT_FOUND.handler}.ts`),
      description: 'ANY $default: 404 ERROR_ROUTE_NOT_FOUND',
      environment: baseEnvironment,
      retain: props.retain,
      // Mostly probes of paths that do not exist: traced as the reads are.
      traceSampleRatio: READ_TRACE_SAMPLE_RATIO,
    });
    props.bind(notFound, USES_NOTHING);
    const defaultRoute = new apigw.HttpRoute(this, 'DefaultRoute', {
      httpApi: this.httpApi,
      routeKey: apigw.HttpRouteKey.DEFAULT,
      integration: new AreaLambdaIntegration('DefaultIntegration', notFound),
    });
    Validations.of(defaultRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'The $default route only refuses: its function answers 404 ERROR_ROUTE_NOT_FOUND to any method and path no manifest route serves, reads nothing and returns no data, so it needs no caller identity.',
    });
    return notFound;
  }

  /** Base URL of the API's stage on API Gateway, without a trailing slash (callers use CloudFront's /api). */
  get url(): string {
    return `${this.httpApi.apiEndpoint}/${API_STAGE_NAME}`;
  }
}

/**
 * A Lambda proxy integration whose invoke permission lives beside the function, in its area's stack, not beside the
 * route: the permission is one resource per route, and the route's stack is the one with the least room.
 */
class AreaLambdaIntegration extends HttpLambdaIntegration {
  constructor(
    private readonly integrationId: string,
    private readonly target: PortalFunction,
  ) {
    super(integrationId, target.function);
  }

  protected override completeBind(options: apigw.HttpRouteIntegrationBindOptions): void {
    const route = options.route;
    this.target.function.addPermission(`${this.integrationId}-Permission`, {
      scope: this.target,
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      // Only this route of this API invokes the function (any stage and method: the route key fixes the method).
      sourceArn: Stack.of(route).formatArn({
        service: 'execute-api',
        resource: route.httpApi.apiId,
        resourceName: `*/*${route.path ?? ''}`,
      }),
    });
  }
}

function pascal(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { logRetentionOf } from './portal-function.js';
import { HEADERS, formatErrorMessage, ROUTES, type ErrorBody } from '@portal/shared';

/** Path under which CloudFront forwards to the HTTP API (the API's stage name). */
export const API_PATH_PREFIX = '/api';

/** The Spanish error body WAF answers when an address goes over the rate limit (the API's documented shape). */
export const RATE_LIMITED_BODY: ErrorBody = {
  statusCode: 429,
  message: formatErrorMessage('ERROR_TOO_MANY_REQUESTS', {}),
  txId: '',
  errors: [{ code: 'ERROR_TOO_MANY_REQUESTS', parameters: {} }],
};

/** Requests one API client (one Authorization header) may send in any 5-minute window before WAF answers 429. */
export const API_CLIENT_WAF_RATE_LIMIT = 1000;

/** A request part as it came: no text transformation before matching. */
const NO_TRANSFORMATION = [{ priority: 0, type: 'NONE' }];

/**
 * The machine path: a supplier's API client's calls, which carry the x-api-client header (docs/integrators.md). The
 * API refuses that header on a person's token (ERROR_API_CLIENT_HEADER), so it lets no browser script skip the
 * challenge.
 */
const MACHINE_PATH: wafv2.CfnWebACL.StatementProperty = {
  sizeConstraintStatement: {
    fieldToMatch: { singleHeader: { Name: HEADERS.apiClient } },
    comparisonOperator: 'GT',
    size: 0,
    textTransformations: NO_TRANSFORMATION,
  },
};
const NOT_MACHINE_PATH: wafv2.CfnWebACL.StatementProperty = { notStatement: { statement: MACHINE_PATH } };

export interface FirewallProps {
  /** Web ACL name, unique per account (two stages side by side). */
  readonly name: string;
  /** CloudWatch Logs group for the web ACL's logs; WAF requires the `aws-waf-logs-` prefix. */
  readonly logGroupName: string;
  /** Requests one IP address may send in any 5-minute window before WAF answers 429. */
  readonly rateLimit: number;
  /** Custom domains whose WAF tokens the web ACL accepts besides the distribution's own domain. */
  readonly tokenDomains: readonly string[];
  readonly retain: boolean;
}

interface ManagedGroup {
  readonly name: string;
  readonly excluded?: readonly string[];
  readonly config?: wafv2.CfnWebACL.ManagedRuleGroupConfigProperty;
  /** Where the group applies; everywhere when absent. */
  readonly scopeDown?: wafv2.CfnWebACL.StatementProperty;
}

/** A rule of the web ACL before its priority, which is its place in the list. */
type UnnumberedRule = Omit<wafv2.CfnWebACL.RuleProperty, 'priority'>;

function visibility(metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty {
  return { cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true };
}

/** A request part matched against a string as given (no transformation). */
function byteMatch(
  fieldToMatch: wafv2.CfnWebACL.FieldToMatchProperty,
  positionalConstraint: 'STARTS_WITH' | 'EXACTLY',
  searchString: string,
): wafv2.CfnWebACL.StatementProperty {
  return {
    byteMatchStatement: { fieldToMatch, positionalConstraint, searchString, textTransformations: NO_TRANSFORMATION },
  };
}

const RATE_LIMITED: wafv2.CfnWebACL.RuleActionProperty = {
  block: { customResponse: { responseCode: 429, customResponseBodyKey: 'rateLimited' } },
};

/**
 * An IP address's limit, then an API client's own, per Authorization header (its token), before the function's
 * per-client counter.
 */
function rateLimitRules(rateLimit: number): UnnumberedRule[] {
  return [
    {
      name: 'RateLimitPerIp',
      statement: { rateBasedStatement: { limit: rateLimit, aggregateKeyType: 'IP' } },
      action: RATE_LIMITED,
      visibilityConfig: visibility('RateLimitPerIp'),
    },
    {
      name: 'RateLimitPerApiClient',
      statement: {
        rateBasedStatement: {
          limit: API_CLIENT_WAF_RATE_LIMIT,
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [{ header: { name: 'authorization', textTransformations: NO_TRANSFORMATION } }],
          scopeDownStatement: MACHINE_PATH,
        },
      },
      action: RATE_LIMITED,
      visibilityConfig: visibility('RateLimitPerApiClient'),
    },
  ];
}

const MANAGED_GROUPS: readonly ManagedGroup[] = [
  { name: 'AWSManagedRulesAmazonIpReputationList' },
  // Request bodies of the API are JSON validated by the functions (documents go straight to S3); a bulk
  // e-mail reception change may exceed the group's 8 KB body limit, so that one rule only counts.
  { name: 'AWSManagedRulesCommonRuleSet', excluded: ['SizeRestrictions_BODY'] },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet' },
  {
    name: 'AWSManagedRulesBotControlRuleSet',
    config: { awsManagedRulesBotControlRuleSet: { inspectionLevel: 'COMMON' } },
    // A supplier's system is a bot by design (an HTTP library, no browser signals): Bot Control would block it.
    scopeDown: NOT_MACHINE_PATH,
  },
];

function managedGroupRule(group: ManagedGroup): UnnumberedRule {
  return {
    name: group.name,
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name: group.name,
        ruleActionOverrides: group.excluded?.map((name) => ({ name, actionToUse: { count: {} } })),
        managedRuleGroupConfigs: group.config ? [group.config] : undefined,
        scopeDownStatement: group.scopeDown,
      },
    },
    overrideAction: { none: {} },
    visibilityConfig: visibility(group.name),
  };
}

/**
 * App attestation (spec §1): an API request without a valid WAF token is answered with WAF's challenge, which a
 * script cannot pass; the portal's page gets its token from challenge.js before calling the API. The public routes
 * (health checks, the OpenAPI document) stay reachable for monitors.
 */
function requireAppTokenRule(): UnnumberedRule {
  const publicPaths = ROUTES.filter((route) => route.auth === 'public').map(
    (route) => `${API_PATH_PREFIX}${route.path}`,
  );
  return {
    name: 'RequireAppToken',
    statement: {
      andStatement: {
        statements: [
          byteMatch({ uriPath: {} }, 'STARTS_WITH', `${API_PATH_PREFIX}/`),
          // A supplier's API client cannot run challenge.js: its calls are held to their own rate instead.
          NOT_MACHINE_PATH,
          // CORS preflights carry no token (a developer's Vite server calling the stage's API).
          { notStatement: { statement: byteMatch({ method: {} }, 'EXACTLY', 'OPTIONS') } },
          {
            notStatement: {
              statement: {
                orStatement: { statements: publicPaths.map((path) => byteMatch({ uriPath: {} }, 'EXACTLY', path)) },
              },
            },
          },
        ],
      },
    },
    action: { challenge: {} },
    visibilityConfig: visibility('RequireAppToken'),
  };
}

/** The web ACL's actions whose requests are logged: whatever a rule did besides letting the request through. */
export const WAF_LOGGED_ACTIONS = ['BLOCK', 'COUNT', 'CAPTCHA', 'CHALLENGE', 'EXCLUDED_AS_COUNT'] as const;

/**
 * The AWS WAF web ACL in front of the site and the API (CloudFront scope, hence us-east-1):
 * the rate-based rule, AWS managed rule groups, Bot Control, and the app attestation of spec §1 —
 * every API call must carry a WAF token, which only the portal's page obtains by solving WAF's
 * silent JavaScript challenge (challenge.js of the application integration URL).
 */
export class Firewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;
  /** Base URL of the web ACL's JavaScript integration (challenge.js lives below it). */
  readonly integrationUrl: string;

  constructor(scope: Construct, id: string, props: FirewallProps) {
    super(scope, id);
    const rules = [...rateLimitRules(props.rateLimit), ...MANAGED_GROUPS.map(managedGroupRule), requireAppTokenRule()];
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: props.name,
      description: 'Portal de Proveedores: sitio y API',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      rules: rules.map((rule, priority) => ({ ...rule, priority })),
      customResponseBodies: {
        rateLimited: { contentType: 'APPLICATION_JSON', content: JSON.stringify(RATE_LIMITED_BODY) },
      },
      // A token stays valid for four hours; challenge.js renews it in the background while the page is open.
      challengeConfig: { immunityTimeProperty: { immunityTime: 4 * 60 * 60 } },
      tokenDomains: props.tokenDomains.length > 0 ? [...props.tokenDomains] : undefined,
      visibilityConfig: visibility(props.name),
    });
    this.addLogging(props);
    this.integrationUrl = this.readIntegrationUrl(props.name);
    this.acknowledgeCustomResourceHandler();
  }

  /** The web ACL's logs: only what a rule acted on, without credentials. */
  private addLogging(props: FirewallProps): void {
    const logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: props.logGroupName,
      retention: logRetentionOf(this),
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    new wafv2.CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [logGroup.logGroupArn],
      // Bearer tokens and cookies never reach the logs.
      redactedFields: [{ singleHeader: { Name: 'authorization' } }, { singleHeader: { Name: 'cookie' } }],
      // Only what a rule acted on (blocked, challenged, counted): every request is already in CloudFront's access
      // logs, and logging each allowed one was two thirds of the logs' cost (docs/cost.md).
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [
          {
            Behavior: 'KEEP',
            Requirement: 'MEETS_ANY',
            Conditions: WAF_LOGGED_ACTIONS.map((action) => ({ ActionCondition: { Action: action } })),
          },
        ],
      },
    });
  }

  /** CloudFormation does not return the application integration URL; WAF's GetWebACL does. */
  private readIntegrationUrl(name: string): string {
    const integration = new cr.AwsCustomResource(this, 'IntegrationUrl', {
      onUpdate: {
        service: 'WAFV2',
        action: 'getWebACL',
        parameters: { Name: name, Scope: 'CLOUDFRONT', Id: this.webAcl.attrId },
        physicalResourceId: cr.PhysicalResourceId.of(this.webAcl.attrId),
        outputPaths: ['ApplicationIntegrationURL'],
      },
      policy: cr.AwsCustomResourcePolicy.fromSdkCalls({ resources: [this.webAcl.attrArn] }),
      installLatestAwsSdk: false,
    });
    return integration.getResponseField('ApplicationIntegrationURL');
  }

  /** The AwsCustomResource's singleton function is CDK's: its runtime and basic execution policy are not ours. */
  private acknowledgeCustomResourceHandler(): void {
    const stack = Stack.of(this);
    for (const child of stack.node.findAll()) {
      if (!child.node.id.startsWith('AWS679f53fac002430cb0da5b7982bd2287')) continue;
      Validations.of(child).acknowledge(
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason: 'CDK AwsCustomResource handler (reads the web ACL once per deploy); its role is generated by CDK.',
        },
        {
          id: 'AwsSolutions-L1',
          reason: 'The AwsCustomResource handler runtime is fixed by aws-cdk-lib and moves with its upgrades.',
        },
      );
    }
  }
}

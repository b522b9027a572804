import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import { fullDiff, ResourceImpact, type TemplateDiff } from '@aws-cdk/cloudformation-diff';

/**
 * CloudFormation's quotas on one template: 500 resources, and 1 MB of body read from S3 (taken as 10^6 bytes, the
 * lower reading).
 */
export const TEMPLATE_LIMITS = { resources: 500, bytes: 1_000_000 } as const;

/** The share of either limit a template may reach before the infra tests fail (docs/adr/0048-stacks-by-area.md). */
export const TEMPLATE_GUARD_SHARE = 0.7;

/** A synthesized template by the stack a reader knows it as (a stack name, or a nested stack's construct path). */
export interface NamedTemplate {
  readonly stack: string;
  readonly body: string;
}

export interface TemplateBudget {
  readonly stack: string;
  readonly resources: number;
  readonly bytes: number;
  /** The larger of the two shares of CloudFormation's limits, 0 to 1 (or more). */
  readonly share: number;
}

export function budgetOf({ stack, body }: NamedTemplate): TemplateBudget {
  const resources = Object.keys((JSON.parse(body) as { Resources?: object }).Resources ?? {}).length;
  const bytes = Buffer.byteLength(body, 'utf8');
  return {
    stack,
    resources,
    bytes,
    share: Math.max(resources / TEMPLATE_LIMITS.resources, bytes / TEMPLATE_LIMITS.bytes),
  };
}

/** A sentence for each template past `share` of either limit, naming its stack; none when all have room. */
export function overBudget(templates: readonly NamedTemplate[], share = TEMPLATE_GUARD_SHARE): string[] {
  return templates.map(budgetOf).flatMap((budget) => {
    const problems: string[] = [];
    if (budget.resources > share * TEMPLATE_LIMITS.resources) {
      problems.push(`${budget.resources} recursos (límite ${TEMPLATE_LIMITS.resources})`);
    }
    if (budget.bytes > share * TEMPLATE_LIMITS.bytes) {
      problems.push(`${budget.bytes} bytes (límite ${TEMPLATE_LIMITS.bytes})`);
    }
    return problems.length
      ? [`La pila ${budget.stack} pasa el ${Math.round(share * 100)} % de CloudFormation: ${problems.join(' y ')}`]
      : [];
  });
}

/** A stateful resource that an update from the old template to the new one would replace, delete or expose. */
export interface StatefulLoss {
  readonly stack: string;
  readonly logicalId: string;
  readonly type: string;
  readonly impact: 'reemplazo' | 'reemplazo posible' | 'eliminación' | 'sale de la pila' | 'pierde Retain';
}

/**
 * Resource types that hold data by AWS's own account of them (the CloudFormation resource specification's
 * stateful flag, as CDK's service spec carries it) but whose loss at an update the product accepts: a function's log
 * group is kept by a retaining stage (orphaned, with its retention) and deleted by one that does not retain, by the
 * stage's choice, and its function writes to its new one.
 */
const LOSS_ACCEPTED_TYPES: ReadonlySet<string> = new Set(['AWS::Logs::LogGroup']);

let statefulTypes: Map<string, boolean> | undefined;
function isStateful(type: string): boolean {
  statefulTypes ??= new Map();
  let stateful = statefulTypes.get(type);
  if (stateful === undefined) {
    const spec = loadSpec().lookup('resource', 'cloudFormationType', 'equals', type);
    // A type the spec does not know (a custom resource) is not taken as holding data.
    stateful = spec.length > 0 && spec[0]!.isStateful === true;
    statefulTypes.set(type, stateful);
  }
  return stateful;
}
let spec: ReturnType<typeof loadAwsServiceSpecSync> | undefined;
function loadSpec(): ReturnType<typeof loadAwsServiceSpecSync> {
  spec ??= loadAwsServiceSpecSync();
  return spec;
}

const RETAINING = new Set(['Retain', 'RetainExceptOnCreate', 'Snapshot']);

/**
 * What an update of `stack` from `previous` to `next` would do to its stateful resources, beyond what is accepted:
 * every replacement (certain or possible), every removal from the template (deleted, or left outside the stack if it
 * was retained: a resource moved to another stack needs `cdk import` there), and every retained resource that stops
 * being retained. `accepted` names logical ids a reviewer has chosen to lose (a
 * rotated secret, say).
 */
export function statefulLosses(
  stack: string,
  previous: object,
  next: object,
  accepted: ReadonlySet<string> = new Set(),
): { diff: TemplateDiff; losses: StatefulLoss[] } {
  const diff = fullDiff(previous, next);
  const losses: StatefulLoss[] = [];
  diff.resources.forEachDifference((logicalId, change) => {
    const type = change.oldResourceType;
    if (!type || !isStateful(type) || LOSS_ACCEPTED_TYPES.has(type) || accepted.has(logicalId)) return;
    const impact = lossOf(change.changeImpact);
    const oldValue = change.oldValue as { DeletionPolicy?: string; UpdateReplacePolicy?: string } | undefined;
    const newValue = change.newValue as { DeletionPolicy?: string; UpdateReplacePolicy?: string } | undefined;
    if (impact) losses.push({ stack, logicalId, type, impact });
    else if (
      newValue &&
      RETAINING.has(oldValue?.DeletionPolicy ?? '') &&
      !RETAINING.has(newValue.DeletionPolicy ?? '')
    ) {
      losses.push({ stack, logicalId, type, impact: 'pierde Retain' });
    }
  });
  return { diff, losses };
}

function lossOf(impact: ResourceImpact): StatefulLoss['impact'] | null {
  switch (impact) {
    case ResourceImpact.WILL_REPLACE:
      return 'reemplazo';
    case ResourceImpact.MAY_REPLACE:
      return 'reemplazo posible';
    case ResourceImpact.WILL_DESTROY:
      return 'eliminación';
    case ResourceImpact.WILL_ORPHAN:
      return 'sale de la pila';
    default:
      return null;
  }
}

const IMPACT_WORDS: Partial<Record<ResourceImpact, string>> = {
  [ResourceImpact.WILL_CREATE]: 'se crean',
  [ResourceImpact.WILL_UPDATE]: 'se actualizan',
  [ResourceImpact.MAY_REPLACE]: 'pueden reemplazarse',
  [ResourceImpact.WILL_REPLACE]: 'se reemplazan',
  [ResourceImpact.WILL_DESTROY]: 'se eliminan',
  [ResourceImpact.WILL_ORPHAN]: 'salen de la pila (se conservan)',
  [ResourceImpact.WILL_IMPORT]: 'se importan',
};

/**
 * One line per kind of change of a diff's resources, with how many of each type: what a reviewer reads first
 * ("se eliminan 12: AWS::IAM::Role 6, AWS::Lambda::Function 6"), the whole diff beside it.
 */
export function summaryOf(diff: TemplateDiff): string[] {
  const byImpact = new Map<string, Map<string, number>>();
  diff.resources.forEachDifference((_logicalId, change) => {
    const words = IMPACT_WORDS[change.changeImpact];
    if (!words || !change.isDifferent) return;
    const types = byImpact.get(words) ?? new Map<string, number>();
    const type = change.newResourceType ?? change.oldResourceType ?? '?';
    types.set(type, (types.get(type) ?? 0) + 1);
    byImpact.set(words, types);
  });
  return Object.values(IMPACT_WORDS)
    .filter((words) => byImpact.has(words))
    .map((words) => {
      const types = [...byImpact.get(words)!].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
      const total = types.reduce((sum, [, count]) => sum + count, 0);
      return `${words} ${total}: ${types.map(([type, count]) => `${type} ${count}`).join(', ')}`;
    });
}

import { NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

type Json = unknown;
interface StackTemplate {
  Resources: Record<string, { Type: string; Properties?: Record<string, Json> }>;
  Parameters?: Record<string, Json>;
  Outputs?: Record<string, { Value: Json }>;
}

/**
 * One template for a stack and every nested stack below it, as CloudFormation runs them together: the nested
 * stacks' resources beside the parent's, a nested stack's parameters replaced by the values its parent passes, and a
 * parent's `Fn::GetAtt [<nested>, Outputs.<name>]` replaced by that output's value. So a test reads a function, its
 * role and the route that invokes it as one, whichever stack of the split holds each (docs/adr/0048-stacks-by-area.md).
 */
export function wholeStack(stack: Stack): Template {
  const own = Template.fromStack(stack).toJSON() as StackTemplate;
  const nestedStacks = stack.node
    .findAll()
    .filter((c): c is NestedStack => c instanceof NestedStack && c.nestedStackParent === stack);
  const byLogicalId = new Map<string, StackTemplate>();
  for (const nested of nestedStacks) {
    const resource = nested.nestedStackResource;
    if (!resource) throw new Error(`${nested.node.path}: nested stack without its resource`);
    const logicalId = stack.resolve(resource.logicalId) as string;
    byLogicalId.set(logicalId, wholeStack(nested).toJSON() as StackTemplate);
  }

  // A parent's value, with every nested output it reads replaced by that output's (resolved) value.
  const inParent = (value: Json): Json =>
    mapJson(value, (node) => {
      const getAtt = (node as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
      if (!Array.isArray(getAtt) || !byLogicalId.has(getAtt[0]) || !getAtt[1].startsWith('Outputs.')) return undefined;
      return inNested(getAtt[0], byLogicalId.get(getAtt[0])!.Outputs![getAtt[1].slice('Outputs.'.length)]!.Value);
    });
  // A nested stack's value, with every parameter it reads replaced by what its parent passes.
  const inNested = (logicalId: string, value: Json): Json => {
    const nested = byLogicalId.get(logicalId)!;
    const passed = (own.Resources[logicalId]!.Properties?.Parameters ?? {}) as Record<string, Json>;
    return mapJson(value, (node) => {
      const ref = (node as { Ref?: unknown }).Ref;
      if (typeof ref !== 'string' || !nested.Parameters?.[ref]) return undefined;
      if (!(ref in passed)) throw new Error(`${logicalId}: parameter ${ref} is not passed by its parent`);
      return inParent(passed[ref]);
    });
  };

  const resources: StackTemplate['Resources'] = {};
  for (const [id, resource] of Object.entries(own.Resources)) resources[id] = inParent(resource) as never;
  for (const [logicalId, nested] of byLogicalId) {
    for (const [id, resource] of Object.entries(nested.Resources)) {
      if (id in resources) throw new Error(`${id} is both in ${logicalId} and in another stack of ${stack.node.path}`);
      resources[id] = inNested(logicalId, resource) as never;
    }
  }
  const outputs: Record<string, Json> = {};
  for (const [id, output] of Object.entries(own.Outputs ?? {})) outputs[id] = inParent(output);
  return Template.fromJSON({ ...own, Resources: resources, Outputs: outputs });
}

/** A deep copy of `value` in which every object `replace` answers for (not undefined) is replaced by its answer. */
function mapJson(value: Json, replace: (node: object) => Json): Json {
  if (Array.isArray(value)) return value.map((item) => mapJson(item, replace));
  if (value && typeof value === 'object') {
    const replaced = replace(value);
    if (replaced !== undefined) return replaced;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapJson(item, replace)]));
  }
  return value;
}

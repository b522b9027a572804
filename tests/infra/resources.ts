/** A resource of a synthesized CloudFormation template, as the infra tests read it (template.toJSON().Resources). */
export type Resource = {
  Type: string;
  Properties?: Record<string, any>;
  DeletionPolicy?: string;
  DependsOn?: string[];
};
export type Resources = Record<string, Resource>;

/** The value of a resource's tag `key` (undefined without it). */
export function tagOf(resource: Resource, key: string): string | undefined {
  const tags = (resource.Properties?.Tags ?? []) as { Key: string; Value: string }[];
  return tags.find((tag) => tag.Key === key)?.Value;
}

/** The logical id behind `{ Ref }` or `{ Fn::GetAtt: [id, ...] }` (undefined for anything else). */
export function refId(value: unknown): string | undefined {
  if (value && typeof value === 'object') {
    const ref = (value as { Ref?: unknown }).Ref;
    if (typeof ref === 'string') return ref;
    const getAtt = (value as { 'Fn::GetAtt'?: unknown[] })['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  }
  return undefined;
}

import { BadRequestError, spanishIssueMessage, type ErrorCode, type ErrorItem } from '@portal/shared';
import * as z from 'zod/mini';

// Reasons in Spanish for every schema the functions parse (zod's own are English).
z.config({ localeError: spanishIssueMessage });

/** The value at an issue's path inside what was parsed; undefined where the path leads nowhere. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Parses one part of the request with its manifest schema. Every problem becomes an error item:
 * a missing value names the parameter (spec §5), any other names the parameter and the reason.
 */
export function parsePart<T extends z.ZodMiniType>(
  schema: T | undefined,
  value: unknown,
  parameterCodes: Readonly<Partial<Record<string, ErrorCode>>> = {},
): z.output<T> | undefined {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const items: ErrorItem[] = result.error.issues.map((issue) => {
    const parameter = issue.path.map(String).join('.') || 'body';
    const ownCode = parameterCodes[parameter];
    if (ownCode) return { code: ownCode, parameters: { parameter } };
    const missing = issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined;
    return missing
      ? { code: 'ERROR_MISSING_PARAMETER', parameters: { parameter } }
      : { code: 'ERROR_INVALID_PARAMETER', parameters: { parameter, reason: issue.message } };
  });
  const [first, ...rest] = items;
  throw new BadRequestError(first!.code, first!.parameters, rest);
}

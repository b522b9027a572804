import { BadRequestError, type ErrorCode, type ErrorItem } from '@portal/shared';
import type { z } from 'zod';

/**
 * Parses one part of the request with its manifest schema. Every problem becomes an error item:
 * a missing value names the parameter (spec §5), any other names the parameter and the reason.
 */
export function parsePart<T extends z.ZodType>(
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
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    return missing
      ? { code: 'ERROR_MISSING_PARAMETER', parameters: { parameter } }
      : { code: 'ERROR_INVALID_PARAMETER', parameters: { parameter, reason: issue.message } };
  });
  const [first, ...rest] = items;
  throw new BadRequestError(first!.code, first!.parameters, rest);
}

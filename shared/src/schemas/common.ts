import * as z from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors/catalogue.js';

/** The one error body of the API (spec §3 "Backend error"). */
export const ErrorBody = z.object({
  statusCode: z.number().int(),
  message: z.string(),
  txId: z.string(),
  errors: z.array(
    z.object({
      code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
      parameters: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A RUC: 11 digits. The check digit is verified by rules/ruc.ts where it matters. */
export const Ruc = z.string().regex(/^\d{11}$/, 'debe tener 11 dígitos');

/** Calendar date as yyyy-mm-dd; timestamps as ISO 8601 with zone. */
export const IsoDate = z.iso.date();
export const IsoDateTime = z.iso.datetime({ offset: true });

export const Money = z.number().multipleOf(0.01).nonnegative();

/** A query value given as a comma-separated list, e.g. invoiceStatus=PENDING,COMPLETED. */
export function commaList<T extends z.ZodType<string, string>>(item: T) {
  return z
    .string()
    .transform((raw) =>
      raw
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part.length > 0),
    )
    .pipe(z.array(item).min(1));
}

/** A query flag given as true/false. */
export const QueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Opaque pagination: the server hands out nextCursor, the client sends it back as cursor. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2048).optional(),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export const Empty = z.object({}).strict();
export const NoContent = z.null();

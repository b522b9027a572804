import * as z from 'zod/mini';
import { ERROR_CODES, type ErrorCode } from '../errors/catalogue.js';
import {
  ISSUE_DATE_FLOOR,
  MAX_AMOUNT,
  MAX_AMOUNT_TEXT,
  TEXT_LIMITS,
  issueDateProblem,
  peruvianDate,
} from '../limits.js';

/** The one error body of the API (spec §3 "Backend error"). */
export const ErrorBody = z.object({
  statusCode: z.int(),
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
export const Ruc = z.string().check(z.regex(/^\d{11}$/, 'debe tener 11 dígitos'));

/** Calendar date as yyyy-mm-dd; timestamps as ISO 8601 with zone. */
export const IsoDate = z.iso.date();
export const IsoDateTime = z.iso.datetime({ offset: true });

export const Money = z.number().check(z.multipleOf(0.01), z.nonnegative());

/** An amount a request brings: at most two decimals, zero or more, and within MAX_AMOUNT (docs/limits.md). */
export const RequestMoney = z
  .number()
  .check(z.multipleOf(0.01), z.nonnegative(), z.maximum(MAX_AMOUNT, `no puede superar ${MAX_AMOUNT_TEXT}`));

/** The issue date of a document: not after today in Lima, not before ISSUE_DATE_FLOOR (docs/limits.md). */
const problemOf = (date: string) => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? issueDateProblem(date) : null);
export const IssueDate = IsoDate.check(
  z.refine((date) => problemOf(date) !== 'FUTURE', 'no puede ser posterior a la fecha de hoy'),
  z.refine((date) => problemOf(date) !== 'TOO_OLD', `no puede ser anterior al ${peruvianDate(ISSUE_DATE_FLOOR)}`),
);

/** A query value given as a comma-separated list, e.g. invoiceStatus=PENDING,COMPLETED. */
export function commaList<T extends z.ZodMiniType<string, string>>(item: T) {
  const parts = z.pipe(
    z.string(),
    z.transform((raw) =>
      raw
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part.length > 0),
    ),
  );
  return z.pipe(parts, z.array(item).check(z.minLength(1)));
}

/** A query flag given as true/false. */
export const QueryBoolean = z.pipe(
  z.enum(['true', 'false']),
  z.transform((value) => value === 'true'),
);

/** Opaque pagination: the server hands out nextCursor, the client sends it back as cursor. */
export const PageQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.cursor))),
});

/** One page of a list: its items and the cursor of the next page (null on the last). */
export function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.nullable(z.string()) });
}

/** A list served whole, in one answer: its items, no cursor. */
export function listOf<T extends z.ZodMiniType>(item: T) {
  return z.object({ items: z.array(item) });
}

export const Empty = z.strictObject({});
export const NoContent = z.null();

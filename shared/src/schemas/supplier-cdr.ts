import * as z from 'zod/mini';
import { staffOnly } from './visibility.js';
import { CDR_CONTRADICTIONS, CDR_VERDICTS } from '../rules/cdr.js';
import { IsoDate, IsoDateTime } from './common.js';

/**
 * The CDR the supplier sent with the document (docs/ap-cdr.md), as the invoice keeps it: SUNAT's answer
 * in the supplier's hands. Evidence only: it never changes certStatus; when it contradicts SUNAT's check or names
 * another document, `contradiction` says how, and staff are told.
 */
export const SupplierCdr = z.object({
  /** SUNAT's return code ('0', '2017', '4287'). */
  responseCode: z.string(),
  description: z.string(),
  /** What the code means; null for a code that is no verdict (an exception of the submission). */
  verdict: z.nullable(z.enum(CDR_VERDICTS)),
  /** The document it answers, "SERIE-NÚMERO" as written in the CDR. */
  documentId: z.string(),
  /** RUC of who issued the CDR (SUNAT). */
  senderTaxId: z.string(),
  responseDate: IsoDate,
  /** SUNAT's observations of an accepted document, the first ones. */
  notes: z.array(z.object({ code: z.nullable(z.string()), message: z.string() })),
  /** The CDR's XML as received (a download for staff); null when it was not kept. */
  fileKey: z.nullable(z.string()),
  receivedAt: IsoDateTime,
  /**
   * Every way it contradicts SUNAT's check or the invoice; null when nothing does (yet: SUNAT may not have answered).
   * It may be a forgery under review (docs/ap-cdr.md): the supplier never learns of it, neither here nor in the trail.
   */
  contradiction: staffOnly(
    z.nullable(
      z.object({
        reasons: z.array(z.object({ kind: z.enum(CDR_CONTRADICTIONS), message: z.string() })),
        flaggedAt: IsoDateTime,
      }),
    ),
  ),
});
export type SupplierCdr = z.infer<typeof SupplierCdr>;

import type { CertStatus, InvoiceType } from '../domain.js';

/**
 * SUNAT's Constancia de Recepción (CDR) (docs/ap-cdr.md): the signed answer SUNAT (or an OSE) gives the
 * issuer when it receives an electronic document. The supplier sends it to us, so it is evidence the supplier
 * supplies, and it can be forged: the portal does not verify its signature and never lets it replace SUNAT's
 * validity check (the consulta integrada the SUNAT worker asks). What it is good for is a second opinion: when the
 * CDR and SUNAT's check disagree, or the CDR names another document, staff are told.
 */

/** SUNAT's own RUC: the sender (cac:SenderParty) and signatory of the CDRs SUNAT issues. */
export const SUNAT_RUC = '20131312955';

export const CDR_VERDICTS = ['ACCEPTED', 'ACCEPTED_WITH_OBSERVATIONS', 'REJECTED'] as const;
export type CdrVerdict = (typeof CDR_VERDICTS)[number];

export const CDR_VERDICT_LABELS: Record<CdrVerdict, string> = {
  ACCEPTED: 'Aceptado',
  ACCEPTED_WITH_OBSERVATIONS: 'Aceptado con observaciones',
  REJECTED: 'Rechazado',
};

/**
 * SUNAT's return codes (Manual del programador, "Manejo de errores"): 0 accepted; 0100–1999 exceptions, failures of
 * the submission itself (authentication, the zip, SUNAT's systems), no verdict on the document; 2000–3999 errors, the
 * document is rejected;
 * 4000 and above observations, the document is accepted. SUNAT writes the observations of an accepted document as
 * cbc:Note "4xxx - text" beside response code 0, so a code 0 with notes is accepted with observations too.
 */
export const CDR_CODE_RANGES = {
  accepted: 0,
  rejected: { from: 2000, to: 3999 },
  observed: { from: 4000, to: 4999 },
} as const;

/** The verdict a response code (and the number of observations) means; null for a code that is no verdict. */
export function cdrVerdictOf(responseCode: string, observations = 0): CdrVerdict | null {
  if (!/^\d{1,4}$/.test(responseCode)) return null;
  const code = Number(responseCode);
  if (code === CDR_CODE_RANGES.accepted) return observations > 0 ? 'ACCEPTED_WITH_OBSERVATIONS' : 'ACCEPTED';
  if (code >= CDR_CODE_RANGES.rejected.from && code <= CDR_CODE_RANGES.rejected.to) return 'REJECTED';
  if (code >= CDR_CODE_RANGES.observed.from && code <= CDR_CODE_RANGES.observed.to) {
    return 'ACCEPTED_WITH_OBSERVATIONS';
  }
  return null;
}

/** What SUNAT's consulta integrada answers of a document (estadoCp), in the words a person reads. */
export const SUNAT_DOCUMENT_STATES: Readonly<Record<string, string>> = {
  '0': 'NO EXISTE',
  '1': 'ACEPTADO',
  '2': 'ANULADO',
  '3': 'AUTORIZADO',
  '4': 'NO AUTORIZADO',
};

/** Catálogo 01 codes of the documents the portal keeps (the CDR's cac:DocumentReference/cbc:DocumentTypeCode). */
const DOCUMENT_TYPE_CODES: Partial<Record<InvoiceType, string>> = {
  FACTURA: '01',
  BOLETA: '03',
  NOTA_DE_CREDITO: '07',
  NOTA_DE_DEBITO: '08',
};

/** What the rule needs of a CDR (functions/src/ubl/cdr.ts reads it). */
export interface CdrEvidence {
  readonly responseCode: string;
  readonly notes: readonly unknown[];
  /** The document the CDR answers, series and correlative as written. */
  readonly prefixId: string;
  readonly numericId: string;
  /** Catálogo 01 code, when the CDR states it (UBL 2.1 CDRs do; SUNAT's UBL 2.0 ones do not). */
  readonly documentTypeCode: string | null;
  /** RUC of the document's issuer. */
  readonly issuerTaxId: string;
  /** The document's acquirer as the CDR names it, when it does; taxIdType is catálogo 06 ('6' RUC). */
  readonly recipient: { readonly taxId: string; readonly taxIdType: string | null } | null;
}

/** What the rule needs of the invoice: who, which document, and SUNAT's own answer about it. */
export interface InvoiceForCdr {
  readonly supplierId: string;
  readonly client: string;
  readonly type: InvoiceType;
  readonly prefixId: string;
  readonly numericId: string;
  readonly certStatus: CertStatus;
  readonly sunat?: { readonly estadoCp: string } | null;
}

export const CDR_CONTRADICTIONS = [
  /** The CDR says accepted; SUNAT's check says the document is not valid (does not exist, voided, not authorised). */
  'ACCEPTED_BUT_NOT_VALID',
  /** The CDR says rejected; SUNAT's check says the document is valid (an old CDR of a submission SUNAT refused). */
  'REJECTED_BUT_VALID',
  'OTHER_DOCUMENT',
  'OTHER_TYPE',
  'OTHER_ISSUER',
  'OTHER_CUSTOMER',
] as const;
export type CdrContradictionKind = (typeof CDR_CONTRADICTIONS)[number];

export interface CdrContradictionReason {
  readonly kind: CdrContradictionKind;
  /** Spanish, for staff. */
  readonly message: string;
}

/** The flag for staff: every way the CDR contradicts SUNAT's check or the invoice. */
export interface CdrContradiction {
  readonly verdict: CdrVerdict | null;
  readonly reasons: readonly CdrContradictionReason[];
}

/** "F001", "1" and "f001", "00000001" name the same document: series without case, correlative as a number. */
export function sameDocumentId(
  a: { readonly prefixId: string; readonly numericId: string },
  b: { readonly prefixId: string; readonly numericId: string },
): boolean {
  const number = (value: string) => (/^\d+$/.test(value) ? BigInt(value).toString() : value);
  return (
    a.prefixId.trim().toUpperCase() === b.prefixId.trim().toUpperCase() &&
    number(a.numericId.trim()) === number(b.numericId.trim())
  );
}

/** The ways the CDR names another document, type, issuer or acquirer than the invoice. */
export function cdrIdentityMismatches(cdr: CdrEvidence, invoice: InvoiceForCdr): CdrContradictionReason[] {
  const reasons: CdrContradictionReason[] = [];
  const cdrDocument = `${cdr.prefixId}-${cdr.numericId}`;
  const document = `${invoice.prefixId}-${invoice.numericId}`;
  if (!sameDocumentId(cdr, invoice)) {
    reasons.push({
      kind: 'OTHER_DOCUMENT',
      message: `La constancia de recepción corresponde al comprobante ${cdrDocument}, no a ${document}.`,
    });
  }
  const typeCode = DOCUMENT_TYPE_CODES[invoice.type];
  if (cdr.documentTypeCode !== null && typeCode !== undefined && cdr.documentTypeCode !== typeCode) {
    reasons.push({
      kind: 'OTHER_TYPE',
      message: `La constancia de recepción es de un comprobante de tipo ${cdr.documentTypeCode} (catálogo 01 de SUNAT), no de tipo ${typeCode}.`,
    });
  }
  if (cdr.issuerTaxId !== invoice.supplierId) {
    reasons.push({
      kind: 'OTHER_ISSUER',
      message: `La constancia de recepción es de un comprobante emitido por el RUC ${cdr.issuerTaxId}, no por el proveedor (RUC ${invoice.supplierId}).`,
    });
  }
  if (cdr.recipient?.taxIdType === '6' && cdr.recipient.taxId !== invoice.client) {
    reasons.push({
      kind: 'OTHER_CUSTOMER',
      message: `La constancia de recepción es de un comprobante emitido al RUC ${cdr.recipient.taxId}, no a la sociedad (RUC ${invoice.client}).`,
    });
  }
  return reasons;
}

/**
 * Compares the CDR with SUNAT's validity check and with the invoice; null when nothing contradicts.
 *
 * - Accepted (with or without observations) while SUNAT's check says not valid (certStatus INVALID: estadoCp 0 no
 *   existe, 2 anulado, 4 no autorizado) is flagged: a forged CDR, or a document voided after it was accepted.
 * - Rejected while SUNAT's check says valid is flagged: the CDR is not the answer to the document SUNAT holds.
 * - While SUNAT has not answered (PENDING) there is nothing to compare the verdict with; the caller asks again once
 *   SUNAT's answer is recorded. The CDR never changes certStatus.
 * - The CDR of another document, type, issuer or acquirer is flagged whatever SUNAT says.
 */
export function cdrContradiction(cdr: CdrEvidence, invoice: InvoiceForCdr): CdrContradiction | null {
  const verdict = cdrVerdictOf(cdr.responseCode, cdr.notes.length);
  const reasons = [...cdrVerdictReasons(cdr, invoice), ...cdrIdentityMismatches(cdr, invoice)];
  return reasons.length > 0 ? { verdict, reasons } : null;
}

/** The kinds of contradiction between the CDR's verdict and SUNAT's check (the others are of identity). */
export const CDR_VERDICT_CONTRADICTIONS: readonly CdrContradictionKind[] = [
  'ACCEPTED_BUT_NOT_VALID',
  'REJECTED_BUT_VALID',
];

/**
 * The ways the CDR's verdict contradicts SUNAT's check (none while SUNAT has not answered): what the SUNAT worker
 * asks again of a kept CDR once SUNAT's answer is recorded.
 */
export function cdrVerdictReasons(
  cdr: Pick<CdrEvidence, 'responseCode' | 'notes'>,
  invoice: Pick<InvoiceForCdr, 'certStatus' | 'sunat'>,
): CdrContradictionReason[] {
  const verdict = cdrVerdictOf(cdr.responseCode, cdr.notes.length);
  const reasons: CdrContradictionReason[] = [];
  const state = invoice.sunat?.estadoCp;
  const stateText = state === undefined ? '' : ` (${SUNAT_DOCUMENT_STATES[state] ?? `estado ${state}`})`;
  if (verdict !== null && verdict !== 'REJECTED' && invoice.certStatus === 'INVALID') {
    reasons.push({
      kind: 'ACCEPTED_BUT_NOT_VALID',
      message: `La constancia de recepción dice «${CDR_VERDICT_LABELS[verdict]}», pero la consulta a SUNAT indica que el comprobante no es válido${stateText}.`,
    });
  }
  if (verdict === 'REJECTED' && invoice.certStatus === 'VALID') {
    reasons.push({
      kind: 'REJECTED_BUT_VALID',
      message: `La constancia de recepción dice «${CDR_VERDICT_LABELS.REJECTED}» (código ${cdr.responseCode}), pero la consulta a SUNAT indica que el comprobante es válido${stateText}.`,
    });
  }
  return reasons;
}

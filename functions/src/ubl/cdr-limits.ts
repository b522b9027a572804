/**
 * A CDR is a few kilobytes: a signature, a dozen fields and its observations. Apart from the reader (cdr.ts), so
 * that the uploads' size rules read it without loading the XML reader (saxes) into every function that takes uploads.
 */
export const CDR_LIMITS = {
  maxBytes: 256 * 1024,
  maxDepth: 32,
  maxElements: 5_000,
  maxNotes: 100,
  /** SUNAT's descriptions and observations are a sentence; a paragraph at most. */
  maxText: 1_000,
} as const;

export { parseSunatDocument } from './parse.js';
export * from './parsed-document.js';
export { XML_LIMITS } from './screen.js';
export { CDR_LIMITS, assertCdrOfDocument, parseCdr, type CdrNote, type ParsedCdr } from './cdr.js';

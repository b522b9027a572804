export { parseSunatDocument } from './parse.js';
export * from './parsed-document.js';
export { XML_LIMITS } from './screen.js';

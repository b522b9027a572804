import type { Caller } from '../../http/caller.js';
import type { InvoicePath } from '../invoice-access.js';
import { createUploadTicket } from './create-upload-ticket.js';
import { downloadLink, invoiceFileLink } from './download-link.js';
import { storeReceived } from './store-received.js';
import { discardUpload } from './upload-checks.js';
import type { CreateUploadBody, InvoiceFileQuery, UploadPurpose } from './upload-kinds.js';
import type { UploadsDeps } from './uploads-deps.js';
import { verifyAttachment, verifyMessageAttachment, verifyUpload } from './verify-upload.js';

/** The documents use cases bound to one set of ports, as the tests call them (the handlers import each one). */
export function uploadCalls(deps: UploadsDeps) {
  return {
    createTicket: (caller: Caller, body: CreateUploadBody) => createUploadTicket(deps, caller, body),
    verifyUpload: (key: string, purpose: UploadPurpose, caller: Caller) => verifyUpload(deps, key, purpose, caller),
    verifyAttachment: (key: string, tenants: readonly string[], position: number) =>
      verifyAttachment(deps, key, tenants, position),
    verifyMessageAttachment: (key: string, tenants: readonly string[], position: number) =>
      verifyMessageAttachment(deps, key, tenants, position),
    downloadLink: (key: string, fileName: string) => downloadLink(deps, key, fileName),
    storeReceived: (...args: Parameters<typeof storeReceived> extends [unknown, ...infer R] ? R : never) =>
      storeReceived(deps, ...args),
    discardRefused: (key: string, reason: string, code: string) => discardUpload(deps, key, reason, code),
    fileLink: (caller: Caller, path: InvoicePath, query: InvoiceFileQuery) =>
      invoiceFileLink(deps, caller, path, query),
  };
}

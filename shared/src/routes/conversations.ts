import * as z from 'zod/mini';
import {
  InvoiceMessages,
  MessageFileQuery,
  PostMessageBody,
  PostedMessage,
  WaitingConversations,
} from '../schemas/conversations.js';
import { InvoiceKeyPath } from '../schemas/invoices.js';
import { FileLink } from '../schemas/uploads.js';
import { MESSAGE_ID_PATTERN } from '../rules/conversations.js';
import { READS_TABLE } from '../access.js';
import { route, ALL_SIGNED_IN, STAFF, INVOICE_ID_CODES, type RouteDef } from './route.js';
import { invoiceRequest } from './invoice-request.js';
import { INVOICE_API_PATH } from '../invoice-ref.js';

const MessageFilePath = z.extend(InvoiceKeyPath, {
  messageId: z.string().check(z.regex(MESSAGE_ID_PATTERN, 'no es un identificador de mensaje')),
});

/**
 * Writing a message on an invoice, the supplier's or the staff's: its text and attachments in, the message out. Reads
 * the attachments' uploads (deletes one it refuses), stores the message and sends its notice.
 */
const POSTS_A_MESSAGE = {
  request: invoiceRequest({ body: PostMessageBody }),
  response: PostedMessage,
  successStatus: 201,
  uses: { table: 'write', documents: ['read', 'delete'], queues: ['notifications'] },
} as const satisfies Partial<RouteDef>;

/**
 * Messages on an invoice: the conversation between the supplier and the group's staff, and the
 * "Observada" mark. The invoice is reached exactly as its detail is (invoice-access.ts).
 */
export const conversationRoutes = {
  listInvoiceMessages: route({
    id: 'listInvoiceMessages',
    method: 'GET',
    path: `${INVOICE_API_PATH}/messages`,
    summary: 'Conversación del comprobante entre el proveedor y el personal del grupo',
    roles: ALL_SIGNED_IN,
    request: invoiceRequest(),
    response: InvoiceMessages,
    uses: READS_TABLE,
    handler: 'conversations/list-invoice-messages',
  }),
  postInvoiceMessage: route({
    id: 'postInvoiceMessage',
    method: 'POST',
    path: `${INVOICE_API_PATH}/messages`,
    summary:
      'Escribe en la conversación del comprobante (texto y adjuntos); la respuesta del proveedor levanta la observación',
    roles: ALL_SIGNED_IN,
    ...POSTS_A_MESSAGE,
    handler: 'conversations/post-invoice-message',
  }),
  observeInvoice: route({
    id: 'observeInvoice',
    method: 'POST',
    path: `${INVOICE_API_PATH}/observation`,
    summary: 'Marca el comprobante como «Observada» con un mensaje que pide algo al proveedor',
    roles: STAFF,
    ...POSTS_A_MESSAGE,
    handler: 'conversations/observe-invoice',
  }),
  clearInvoiceObservation: route({
    id: 'clearInvoiceObservation',
    method: 'DELETE',
    path: `${INVOICE_API_PATH}/observation`,
    summary: 'Quita la observación del comprobante',
    roles: STAFF,
    request: invoiceRequest(),
    response: InvoiceMessages,
    uses: { table: 'write' },
    handler: 'conversations/clear-invoice-observation',
  }),
  getInvoiceMessageFile: route({
    id: 'getInvoiceMessageFile',
    method: 'GET',
    path: `${INVOICE_API_PATH}/messages/{messageId}/files`,
    summary: 'Enlace temporal para descargar un adjunto de un mensaje del comprobante',
    roles: ALL_SIGNED_IN,
    request: { path: MessageFilePath, query: MessageFileQuery, parameterCodes: INVOICE_ID_CODES },
    response: FileLink,
    uses: { table: 'read', documents: ['presignDownload'] },
    handler: 'conversations/get-invoice-message-file',
  }),
  countWaitingConversations: route({
    id: 'countWaitingConversations',
    method: 'GET',
    path: '/conversations/waiting-count',
    summary: 'Cuántas conversaciones de comprobantes esperan la respuesta del usuario',
    roles: ALL_SIGNED_IN,
    request: {},
    response: WaitingConversations,
    uses: READS_TABLE,
    handler: 'conversations/count-waiting-conversations',
  }),
} as const satisfies Record<string, RouteDef>;

import * as z from 'zod/mini';
import { staffOnly } from './visibility.js';
import { Level } from '../domain.js';
import { COUNT_LIMITS, TEXT_LIMITS } from '../limits.js';
import { IsoDateTime } from './common.js';

// Messages on an invoice: the conversation between the supplier and the group's staff, and the
// "Observada" mark (docs/adr/0031-messages-on-an-invoice.md).

/** Which side of the conversation a person writes for: the supplier, or the group's staff (managers, admins). */
export const CONVERSATION_SIDES = ['SUPPLIER', 'STAFF'] as const;
export const ConversationSide = z.enum(CONVERSATION_SIDES);
export type ConversationSide = z.infer<typeof ConversationSide>;

/** Staff marked the invoice "Observada": it waits on the supplier, whose answer (or staff) clears it. */
export const InvoiceObservation = z.object({
  since: IsoDateTime,
  /** The name of who marked it (or its e-mail). */
  by: staffOnly(z.string()),
  /** The message that asked the supplier for something. */
  reason: z.string(),
});
export type InvoiceObservation = z.infer<typeof InvoiceObservation>;

/** A small summary of the conversation kept on the invoice, written with every message. */
export const ConversationSummary = z.object({
  messageCount: z.int(),
  lastMessageAt: IsoDateTime,
  lastMessageSide: ConversationSide,
  /** The side whose answer the conversation waits for (the header's count); null when nothing is pending. */
  waitingOn: z.nullable(ConversationSide),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

/** A file attached to a message: an upload checked by its bytes (PDF, PNG, JPG). */
export const MessageAttachment = z.object({
  key: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.int(),
});
export type MessageAttachment = z.infer<typeof MessageAttachment>;

/** One message, as stored under the invoice's partition and as the API serves it (text is plain text). */
export const InvoiceMessage = z.object({
  id: z.string(),
  at: IsoDateTime,
  authorName: z.string(),
  authorRole: Level,
  side: ConversationSide,
  text: z.string(),
  attachments: z.array(MessageAttachment),
  /** The message that marked the invoice "Observada". */
  observation: z.boolean(),
});
export type InvoiceMessage = z.infer<typeof InvoiceMessage>;

/** GET …/messages: the whole conversation, oldest first (newest last). */
export const InvoiceMessages = z.object({
  items: z.array(InvoiceMessage),
  observation: z.nullable(InvoiceObservation),
  conversation: z.nullable(ConversationSummary),
});
export type InvoiceMessages = z.infer<typeof InvoiceMessages>;

/**
 * POST …/messages and POST …/observation: the text (trimmed and cleaned by the use case, 1..TEXT_LIMITS.message
 * characters then) and up to COUNT_LIMITS.messageAttachments uploads made for the purpose MESSAGE_ATTACHMENT.
 */
export const PostMessageBody = z.object({
  text: z
    .string()
    .check(z.maxLength(TEXT_LIMITS.messageRaw, `El mensaje no puede superar los ${TEXT_LIMITS.message} caracteres.`)),
  attachments: z._default(
    z
      .array(z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.objectKey)))
      .check(
        z.maxLength(
          COUNT_LIMITS.messageAttachments,
          `Un mensaje lleva como máximo ${COUNT_LIMITS.messageAttachments} archivos adjuntos.`,
        ),
      ),
    [],
  ),
});

/** The message the answer of a post holds, with the invoice's mark and summary after it. */
export const PostedMessage = z.object({
  message: InvoiceMessage,
  observation: z.nullable(InvoiceObservation),
  conversation: z.nullable(ConversationSummary),
});
export type PostedMessage = z.infer<typeof PostedMessage>;

/** GET …/messages/{messageId}/files: which attachment of the message (by position). */
export const MessageFileQuery = z.object({
  index: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(COUNT_LIMITS.messageAttachments - 1)), 0),
});

/** GET /conversations/waiting-count: how many invoices' conversations wait on the caller's side. */
export const WaitingConversations = z.object({ count: z.int() });
export type WaitingConversations = z.infer<typeof WaitingConversations>;

import type { FileLink, InvoiceStatus, RouteBody, RoutePath, RouteQuery, Routes } from '@portal/shared';
import type { Conversations } from '../../repositories/conversations.js';
import type { InvoiceStore } from '../../repositories/invoice-store.js';
import type { Outgoing } from '../../repositories/outgoing.js';

export type PostMessageBody = RouteBody<Routes['postInvoiceMessage']>;
export type MessageFilePath = RoutePath<Routes['getInvoiceMessageFile']>;
export type MessageFileQuery = RouteQuery<Routes['getInvoiceMessageFile']>;

/** An invoice can be observed while it is still in course: not once rejected or paid. */
export const OBSERVABLE: readonly InvoiceStatus[] = ['PENDING', 'COMPLETED', 'ACCEPTED', 'SCHEDULED'];

export interface ConversationDeps {
  readonly store: Pick<InvoiceStore, 'get' | 'commit'>;
  readonly conversations: Pick<Conversations, 'messagesOf' | 'message' | 'waitingCount'>;
  /** Sends the notice a message committed with itself; the outbox sweeper sends it again if this fails. */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  /**
   * verifyMessageAttachment (uploads/verify-upload.ts): an upload of one of `tenants`, checked by its bytes (refused: deleted). Only
   * posting needs it: without it, attaching a file is a wiring fault (500), never an unchecked key.
   */
  readonly verifyAttachment?: (
    key: string,
    tenants: readonly string[],
    position: number,
  ) => Promise<{ key: string; size: number; contentType: string; fileName: string }>;
  /** downloadLink (uploads/download-link.ts): a short link that downloads the file (only the attachment's link needs it). */
  readonly downloadLink?: (key: string, fileName: string) => Promise<FileLink>;
  /** The group's companies (taxIds): an administrator's header counts over all of them. */
  readonly allCompanies?: () => Promise<string[]>;
  readonly clock: () => Date;
  /** Eight lower-case hex digits: a message id's random part. */
  readonly randomHex: () => string;
}

import * as z from 'zod/mini';
import { InvoiceType } from '../domain.js';
import { IsoDateTime, Ruc } from './common.js';

// Notifications and marking them read.

export const Notification = z.object({
  id: z.string(),
  registeredAt: IsoDateTime,
  isRead: z.boolean(),
  message: z.string(),
  reference: z.nullable(z.partial(z.object({ issuerTaxId: Ruc, invoiceType: InvoiceType, invoiceId: z.string() }))),
});
export type Notification = z.infer<typeof Notification>;

export const MarkAsReadBody = z.object({ upTo: z.optional(z.iso.datetime({ offset: true })) });

import * as z from 'zod';
import { InvoiceType } from '../domain.js';
import { IsoDateTime, Ruc } from './common.js';

// Notifications and marking them read.

export const Notification = z.object({
  id: z.string(),
  registeredAt: IsoDateTime,
  isRead: z.boolean(),
  message: z.string(),
  reference: z.object({ issuerTaxId: Ruc, invoiceType: InvoiceType, invoiceId: z.string() }).partial().nullable(),
});
export type Notification = z.infer<typeof Notification>;

export const MarkAsReadBody = z.object({ upTo: z.iso.datetime({ offset: true }).optional() });

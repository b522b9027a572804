import { keys } from '@portal/shared';
import { auditEventOf, invoiceAuditWrite } from './invoice-audit.js';
import {
  noteLinkWrites,
  noteLinkedUpdate,
  noteUnlinkWrite,
  notesHeadCheck,
  originalAbsentCheck,
  originalAmountsUpdate,
  type InvoiceRef,
  type LinkedNote,
  type NoteLinks,
  type OriginalNotes,
} from './note-links.js';

/**
 * The note links in memory, for the use cases' unit tests: the notes linked under each original's key, and which
 * company numbers other suppliers hold. The writes are the real ones, for a table named `table`.
 */
export function makeFakeNoteLinks(
  options: {
    readonly notes?: Readonly<Record<string, readonly LinkedNote[]>>;
    readonly otherSuppliersHold?: readonly string[];
    readonly table?: string;
  } = {},
): Pick<NoteLinks, 'notesOf' | 'anotherSupplierHolds' | 'writes'> {
  const table = options.table ?? 'PortalTable';
  return {
    async notesOf(original: InvoiceRef): Promise<OriginalNotes> {
      const notes = options.notes?.[keys.originalNotes(original.supplierId, original.type, original.id)];
      return notes ? { headVersion: notes.length, notes } : { headVersion: null, notes: [] };
    },
    async anotherSupplierHolds(_client: string, ref: InvoiceRef): Promise<boolean> {
      return (options.otherSuppliersHold ?? []).includes(ref.id);
    },
    writes: {
      link: (original, note) => noteLinkWrites(table, original, note),
      unlink: (original, note) => noteUnlinkWrite(table, original, note),
      originalAbsent: (original) => originalAbsentCheck(table, original),
      headAsRead: (original, headVersion) => notesHeadCheck(table, original, headVersion),
      noteLinked: (note) => noteLinkedUpdate(table, note),
      originalAmounts: (original, amounts) => originalAmountsUpdate(table, original, amounts),
      originalAudit: (original, after, stamp, at) =>
        invoiceAuditWrite(table, original, auditEventOf(stamp, original, after, at)),
    },
  };
}

import { describe, expect, it } from 'vitest';
import { Invoice, isAccepted, originalAmounts } from '@portal/shared';
import { NO_HABIDO_SUPPLIER, ORIGINAL_NOT_IN_PORTAL, buildWorld } from '../../local/seed/seed-data.js';

// The demo world is what the API would have written: valid invoices, notes linked to their originals.

describe('the seeded notes and originals', () => {
  const world = buildWorld();
  const byKey = new Map(
    world.invoices.map((invoice) => [`${invoice.supplierId}#${invoice.type}#${invoice.id}`, invoice]),
  );

  it('are all invoices the API reads back', () => {
    for (const invoice of world.invoices) expect(() => Invoice.parse(invoice), invoice.id).not.toThrow();
  });

  it('link every note to its original of the same company and currency, but the one issued before the portal', () => {
    const notes = world.invoices.filter((invoice) => invoice.billingReference);
    expect(notes.length).toBeGreaterThan(5);
    for (const note of notes) {
      const reference = note.billingReference!;
      const original = byKey.get(`${note.supplierId}#${reference.type}#${reference.id}`);
      if (reference.id === ORIGINAL_NOT_IN_PORTAL.id) {
        expect(original).toBeUndefined();
        expect(note.originalInPortal).toBe(false);
        continue;
      }
      expect(original, note.id).toBeDefined();
      expect({ client: note.client, currency: note.currency, inPortal: note.originalInPortal }).toEqual({
        client: original!.client,
        currency: original!.currency,
        inPortal: true,
      });
      // A note is approved only once its original is; it carries no HES or MIGO of its own.
      if (isAccepted(note.status)) expect(isAccepted(original!.status), note.id).toBe(true);
      expect([...note.serviceSheets, ...note.materialDocs]).toEqual([]);
    }
  });

  it("keep each original's amount to pay as its accepted notes leave it", () => {
    for (const original of world.invoices.filter((invoice) => invoice.noteAdjustments)) {
      const notes = world.invoices.filter(
        (note) => note.supplierId === original.supplierId && note.billingReference?.id === original.id,
      );
      expect({ noteAdjustments: original.noteAdjustments, amountToPay: original.amountToPay }, original.id).toEqual(
        originalAmounts(original.amount, notes),
      );
    }
  });

  it('answer the NO HABIDO supplier as SUNAT does', () => {
    const risky = world.invoices.filter((invoice) => invoice.supplierId === NO_HABIDO_SUPPLIER.taxId);
    expect(risky.map((invoice) => invoice.status).sort()).toEqual(['COMPLETED', 'PENDING']);
    for (const invoice of risky) expect(invoice.sunat).toMatchObject({ estadoRuc: 'ACTIVO', condDomiRuc: 'NO HABIDO' });
  });
});

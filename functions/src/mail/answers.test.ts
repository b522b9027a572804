import { describe, expect, it } from 'vitest';
import { failedAnswer, resultAnswer, type DocumentResult } from './answers.js';

const accepted = (id: string, clientName = 'Cementos Andinos S.A.A.'): DocumentResult => ({
  base: id,
  kind: 'ACCEPTED',
  invoice: { id, supplierId: '20123456789', type: 'FACTURA', clientName },
  cdrWarning: null,
});
const refused = (base: string): DocumentResult => ({ base, kind: 'REFUSED', message: 'Falta el PDF.' });

const answer = (results: readonly DocumentResult[]) =>
  resultAnswer({ to: 'proveedor@example.com', subject: 'Lote', results, portalUrl: null }).text;

describe('the answer to an e-mail with documents counts them in Spanish', () => {
  it('says one registered document in the singular, and many in the plural', () => {
    expect(answer([accepted('F001-1')])).toMatch(/^Se registró su comprobante en el Portal de Proveedores\./);
    expect(answer([accepted('F001-1'), accepted('F001-2')])).toMatch(
      /^Se registraron sus 2 comprobantes en el Portal de Proveedores\./,
    );
  });

  it('agrees the verb with how many of the documents were registered', () => {
    expect(answer([accepted('F001-1'), refused('F001-2')])).toMatch(
      /^Recibimos su correo con 2 comprobantes; se registró 1\. Este es el detalle:/,
    );
    expect(answer([refused('F001-1')])).toMatch(/^Recibimos su correo con 1 comprobante; se registraron 0\./);
  });

  it('gives no second period to a company name that ends a line', () => {
    const text = answer([accepted('F001-1'), accepted('F001-2', 'Minera Sur')]);
    expect(text).toContain('• F001-1: registrado para Cementos Andinos S.A.A.\n');
    expect(text).toContain('• F001-2: registrado para Minera Sur.');
    expect(text).not.toContain('..');
  });

  it('says what an interrupted message had registered and what it left, singular or plural', () => {
    const one = failedAnswer({
      to: 'proveedor@example.com',
      subject: 'Lote',
      total: 2,
      results: [accepted('F001-1')],
      portalUrl: null,
    }).text;
    expect(one).toContain('Antes de interrumpirse se registró 1 de 2;');
    expect(one).toContain('El comprobante restante no se registró.');
  });
});

import { describe, expect, it } from 'vitest';
import { invoiceNumberIn, normalize, understand } from './intents';

describe("the built-in assistant's understanding", () => {
  it('finds the invoice number of a status question, upper case, and not a date', () => {
    expect(invoiceNumberIn('¿en qué estado está la f001-123?')).toBe('F001-123');
    expect(invoiceNumberIn('estado de E001 - 00000045')).toBe('E001-00000045');
    expect(invoiceNumberIn('¿qué pasó el 2026-11-30?')).toBeNull();
    expect(understand('¿En qué estado está la F001-123?')).toEqual({ kind: 'invoiceStatus', number: 'F001-123' });
  });

  it('recognises the payment question however it is written', () => {
    expect(normalize('¿Cuándo me PAGARÁN?')).toBe('cuando me pagaran');
    for (const question of ['¿cuándo me pagan?', 'Cuándo me van a pagar', '¿Cuál es mi fecha de pago?']) {
      expect(understand(question)).toEqual({ kind: 'payments' });
    }
  });

  it('tells uploading an XML from creating without one, and answers the other how-to topics', () => {
    expect(understand('¿Cómo subo mi XML?')).toEqual({ kind: 'howTo', topic: 'uploadXml' });
    expect(understand('No tengo el XML, ¿cómo registro la factura?')).toEqual({ kind: 'howTo', topic: 'withoutXml' });
    expect(understand('¿Quién aprueba mis comprobantes?')).toEqual({ kind: 'howTo', topic: 'approver' });
    expect(understand('Olvidé mi contraseña')).toEqual({ kind: 'howTo', topic: 'password' });
    expect(understand('xyzzy')).toEqual({ kind: 'unknown' });
  });
});

describe('"how many" questions', () => {
  it('counts the statuses and types named, the open ones, or all', () => {
    expect(understand('¿Cuántas facturas tengo pendientes?')).toEqual({
      kind: 'count',
      statuses: 'OPEN',
      types: ['FACTURA'],
    });
    expect(understand('cuantos comprobantes tengo pagados')).toEqual({ kind: 'count', statuses: ['PAID'], types: [] });
    expect(understand('¿Cuántas notas de crédito rechazadas o aprobadas hay?')).toEqual({
      kind: 'count',
      statuses: ['ACCEPTED', 'REJECTED'],
      types: ['NOTA_DE_CREDITO'],
    });
    expect(understand('Número de boletas por revisar')).toEqual({
      kind: 'count',
      statuses: ['PENDING'],
      types: ['BOLETA'],
    });
    expect(understand('¿Cuántos comprobantes tengo?')).toEqual({ kind: 'count', statuses: 'ALL', types: [] });
  });

  it('still reads an invoice number first', () => {
    expect(understand('¿cuánto me deben por la F001-123?')).toEqual({ kind: 'invoiceStatus', number: 'F001-123' });
    // Asked when it is paid, the number's payment date.
    for (const question of [
      '¿cuándo me pagan la F001-123?',
      'Fecha de pago de la f001-123',
      '¿Me pagan la F001-123?',
    ]) {
      expect(understand(question)).toEqual({ kind: 'paymentDate', number: 'F001-123' });
    }
  });
});

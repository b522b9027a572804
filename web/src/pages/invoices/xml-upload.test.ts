import { describe, expect, it } from 'vitest';
import { xmlAndCdr } from './xml-upload';

const file = (name: string) => new File(['<x/>'], name, { type: 'application/xml' });

describe("'Cargar XML' with the document's CDR", () => {
  it('takes the XML and, chosen with it, its CDR (R-….xml) in any order', () => {
    const xml = file('20100070970-01-F001-123.xml');
    const cdr = file('r-20100070970-01-F001-123.XML');
    expect(xmlAndCdr([cdr, xml])).toEqual({ xml, cdr });
    expect(xmlAndCdr([xml])).toEqual({ xml, cdr: null });
  });

  it('says what to choose instead of two documents, or a CDR alone', () => {
    expect(xmlAndCdr([file('F001-1.xml'), file('F001-2.xml')])).toMatch(/«Cargar ZIP»/);
    expect(xmlAndCdr([file('F001-1.xml'), file('R-1.xml'), file('R-2.xml')])).toMatch(/un solo comprobante/);
    expect(xmlAndCdr([file('R-F001-1.xml')])).toBe(
      'Eligió solo la constancia de recepción (R-….xml): elija también el XML del comprobante.',
    );
  });
});

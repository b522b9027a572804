import { describe, expect, it } from 'vitest';
import {
  counted,
  formatCount,
  formatDate,
  formatDateTime,
  formatTime,
  limaDate,
  parseTypedDate,
  plural,
  sentenceEnd,
} from './format.js';

describe('dates and times on the group’s clock (Lima, UTC-5)', () => {
  it('places a timestamp near midnight UTC on Lima’s calendar day', () => {
    // 03:30 UTC on the 5th is 22:30 on the 4th in Lima.
    expect(formatDate('2026-11-05T03:30:00.000Z')).toBe('04/11/26');
    expect(formatDate('2026-11-05T04:59:59.999Z')).toBe('04/11/26');
    expect(formatDate('2026-11-05T05:00:00.000Z')).toBe('05/11/26');
    // The first of January in UTC is still New Year's Eve in Lima.
    expect(formatDate('2027-01-01T00:10:00Z')).toBe('31/12/26');
    expect(limaDate('2027-01-01T00:10:00Z')).toBe('2026-12-31');
    expect(limaDate(new Date('2026-03-01T04:00:00Z'))).toBe('2026-02-28');
  });

  it('keeps an ISO date without a time as the calendar day it names', () => {
    expect(formatDate('2026-11-05')).toBe('05/11/26');
    expect(formatDate('2027-01-01')).toBe('01/01/27');
  });

  it('reads the time of day in Lima, on 24 hours, whatever the offset it was written with', () => {
    expect(formatTime('2026-11-05T14:01:00Z')).toBe('09:01');
    expect(formatTime('2026-11-05T14:51:00+01:00')).toBe('08:51');
    expect(formatTime('2026-11-05T05:00:00Z')).toBe('00:00');
    expect(formatTime('2026-11-05T04:59:00Z')).toBe('23:59');
    // Without a zone designator a timestamp is UTC, as the API writes them.
    expect(formatTime('2026-11-05T14:01:00')).toBe('09:01');
  });

  it('joins date and time, and says whose time it is when asked', () => {
    expect(formatDateTime('2026-11-05T03:30:00.000Z')).toBe('04/11/26 22:30');
    expect(formatDateTime('2026-11-05T15:42:00.000Z', { zone: true })).toBe('05/11/26 10:42 (hora de Lima)');
    expect(formatTime('2026-11-05T15:42:00.000Z', { zone: true })).toBe('10:42 (hora de Lima)');
  });

  it('shows a dash for what is missing or unreadable', () => {
    for (const value of [null, undefined, '', 'ayer', '2026-13-45T99:00:00Z']) {
      expect(formatDate(value)).toBe('—');
      expect(formatTime(value)).toBe('—');
      expect(formatDateTime(value)).toBe('—');
    }
  });
});

describe('a date typed dd/mm/aa (spec §1, §9)', () => {
  it('reads dd/mm/aa and dd/mm/aaaa as the ISO date the API takes; two-digit years are 20yy', () => {
    expect(parseTypedDate('05/11/26')).toEqual({ date: '2026-11-05' });
    expect(parseTypedDate('05/11/2026')).toEqual({ date: '2026-11-05' });
    expect(parseTypedDate(' 5/1/26 ')).toEqual({ date: '2026-01-05' });
    expect(parseTypedDate('29/02/24')).toEqual({ date: '2024-02-29' });
    expect(parseTypedDate('31-12-2025')).toEqual({ date: '2025-12-31' });
    expect(parseTypedDate('01.01.10')).toEqual({ date: '2010-01-01' });
  });

  it('refuses days the calendar does not have', () => {
    for (const typed of ['31/02/26', '29/02/25', '00/10/26', '10/00/26', '10/13/26', '32/01/26', '31/04/2026']) {
      expect(parseTypedDate(typed)).toEqual({ problem: 'IMPOSSIBLE' });
    }
  });

  it('refuses what is not a date in that shape (year first, letters, three-digit years)', () => {
    for (const typed of ['', '2026/11/05', '2026-11-05', '05/11', '05/11/026', 'cinco/11/26', '05/11/26 10:00']) {
      expect(parseTypedDate(typed)).toEqual({ problem: 'FORMAT' });
    }
  });
});

describe('counts and the words that agree with them (es-PE plural rules)', () => {
  const refused = { one: 'rechazado', other: 'rechazados' };

  it('takes the singular for exactly one and the plural for every other count, zero included', () => {
    expect(counted(1, refused)).toBe('1 rechazado');
    expect(counted(0, refused)).toBe('0 rechazados');
    expect(counted(2, refused)).toBe('2 rechazados');
    expect(plural(1, { one: 'ya existía', other: 'ya existían' })).toBe('ya existía');
    expect(plural(3, { one: 'ya existía', other: 'ya existían' })).toBe('ya existían');
  });

  it('groups thousands as Peru writes them', () => {
    expect(counted(1234, refused)).toBe('1,234 rechazados');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(0)).toBe('0');
  });

  it('reads a round million as plural unless a "many" form is given', () => {
    expect(counted(1_000_000, { one: 'comprobante', other: 'comprobantes' })).toBe('1,000,000 comprobantes');
    expect(counted(1_000_000, { one: 'comprobante', other: 'comprobantes', many: 'de comprobantes' })).toBe(
      '1,000,000 de comprobantes',
    );
  });
});

describe('a sentence ends with one period', () => {
  it('adds the period a sentence lacks', () => {
    expect(sentenceEnd('SUNAT confirmó la validez de la factura F001-1 de Ferretería Lima')).toBe(
      'SUNAT confirmó la validez de la factura F001-1 de Ferretería Lima.',
    );
  });

  it('gives no second period to a business name that ends with one', () => {
    expect(sentenceEnd('Registrado para Cementos Andinos S.A.A.')).toBe('Registrado para Cementos Andinos S.A.A.');
    expect(sentenceEnd('de Minera Sur S.A.C. ')).toBe('de Minera Sur S.A.C.');
  });

  it('leaves a question, an exclamation, an ellipsis and an empty text as they are', () => {
    expect(sentenceEnd('¿Desactivar la recepción?')).toBe('¿Desactivar la recepción?');
    expect(sentenceEnd('¡Listo!')).toBe('¡Listo!');
    expect(sentenceEnd('Procesando…')).toBe('Procesando…');
    expect(sentenceEnd('')).toBe('');
  });
});

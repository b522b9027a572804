import { describe, expect, it } from 'vitest';
import { keys } from '@portal/shared';
import { prefixRange } from './key-range.js';

/** DynamoDB's order of string keys: their UTF-8 bytes. */
const inRange = (key: string, range: { from: string; to: string }) =>
  Buffer.compare(Buffer.from(key), Buffer.from(range.from)) >= 0 &&
  Buffer.compare(Buffer.from(key), Buffer.from(range.to)) <= 0;

describe('a sort-key prefix as a key range', () => {
  const neighbours = [
    '0000',
    '0000#9999#20456#FACTURA#B001-10000458',
    '0000458#7#20456#FACTURA#B001-10000458',
    '0000zz',
    '0000~',
    '0000ñandú',
    '0000\u{FFFF}',
    '000',
    '0001',
    '000/',
    '00009',
    '',
    'andino',
  ];

  it('holds exactly the keys that start with the prefix, in DynamoDB’s byte order', () => {
    for (const prefix of ['0000', '20456', 'industriales', keys.invoiceOrderPrefix]) {
      const range = prefixRange(prefix);
      for (const key of [...neighbours, `${prefix}`, `${prefix}#x`, `${prefix}\u{10FFFE}`]) {
        expect(inRange(key, range), `${key} under ${prefix}`).toBe(key.startsWith(prefix));
      }
    }
  });

  it('refuses an empty prefix, which is no range but every key', () => {
    expect(() => prefixRange('')).toThrow();
  });
});

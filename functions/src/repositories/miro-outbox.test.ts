import { describe, expect, it } from 'vitest';
import { sapPostingCountsKey } from '@portal/shared';
import { countsDelta, sapPostingCountsWrite } from './miro-outbox.js';

describe("a company's SAP posting counts", () => {
  it('move by what a record counts as before and after: open (PENDING, POSTING), FAILED, nothing (POSTED)', () => {
    expect(countsDelta(null, 'PENDING')).toEqual({ open: 1 });
    expect(countsDelta('PENDING', 'POSTING')).toEqual({});
    expect(countsDelta('POSTING', 'PENDING')).toEqual({});
    expect(countsDelta('POSTING', 'FAILED')).toEqual({ open: -1, failed: 1 });
    expect(countsDelta('FAILED', 'POSTING')).toEqual({ failed: -1, open: 1 });
    expect(countsDelta('FAILED', 'PENDING')).toEqual({ failed: -1, open: 1 });
    expect(countsDelta('POSTING', 'POSTED')).toEqual({ open: -1 });
    expect(countsDelta('FAILED', 'POSTED')).toEqual({ failed: -1 });
    expect(countsDelta('POSTED', 'POSTED')).toEqual({});
  });

  it("are ADDed on the company's item, only what moves", () => {
    expect(sapPostingCountsWrite('table', '20100070970', { open: -1, failed: 1 })).toEqual({
      Update: {
        TableName: 'table',
        Key: sapPostingCountsKey('20100070970'),
        UpdateExpression: 'ADD #open :open, #failed :failed',
        ExpressionAttributeNames: { '#open': 'open', '#failed': 'failed' },
        ExpressionAttributeValues: { ':open': -1, ':failed': 1 },
      },
    });
    expect(sapPostingCountsWrite('table', '20100070970', { open: 1 })).toMatchObject({
      Update: { UpdateExpression: 'ADD #open :open', ExpressionAttributeValues: { ':open': 1 } },
    });
  });
});

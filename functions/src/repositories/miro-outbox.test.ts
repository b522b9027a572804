import { describe, expect, it } from 'vitest';
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

  it("are ADDed on the company's all-time dashboard counters, only what moves", () => {
    expect(sapPostingCountsWrite('table', '20100070970', { open: -1, failed: 1 })).toEqual({
      Update: {
        TableName: 'table',
        Key: { pk: 'DASHBOARD#20100070970', sk: 'PERIOD#ALL' },
        UpdateExpression: 'ADD #c0 :d0, #c1 :d1',
        ExpressionAttributeNames: { '#c0': 'sapPostingsOpen', '#c1': 'sapPostingsFailed' },
        ExpressionAttributeValues: { ':d0': -1, ':d1': 1 },
      },
    });
    expect(sapPostingCountsWrite('table', '20100070970', { open: 1 })).toMatchObject({
      Update: { ExpressionAttributeNames: { '#c0': 'sapPostingsOpen' }, ExpressionAttributeValues: { ':d0': 1 } },
    });
  });
});

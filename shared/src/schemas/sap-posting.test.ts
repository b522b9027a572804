import { describe, expect, it } from 'vitest';
import { INVOICE_ERROR_MESSAGES } from '../errors/catalogue.js';
import { sapPostingMark, sapPostingView, withPostedDocument } from './sap-posting.js';

const NOW = new Date('2026-11-02T10:10:00Z');
const record = { createdAt: '2026-11-02T10:09:30.000Z', attempts: 0 };

describe('the SAP posting as people see it', () => {
  it('is queued, then sending while a worker holds it, and late once two minutes pass without a posting', () => {
    expect(sapPostingView({ ...record, state: 'PENDING' }, NOW)).toMatchObject({ state: 'QUEUED', late: false });
    const held = { ...record, state: 'POSTING' as const, attempts: 1, postingUntil: '2026-11-02T10:11:00.000Z' };
    expect(sapPostingView(held, NOW).state).toBe('SENDING');
    const old = { ...record, createdAt: '2026-11-02T10:07:59.000Z' };
    expect(sapPostingView({ ...old, state: 'PENDING' }, NOW)).toMatchObject({ state: 'LATE', late: true });
    // An administrator's retry starts the clock again.
    const retried = { ...old, state: 'PENDING' as const, retriedAt: '2026-11-02T10:09:50.000Z' };
    expect(sapPostingView(retried, NOW)).toMatchObject({ state: 'QUEUED', late: false });
    // A worker that died: its lease ran out, nobody is sending it.
    expect(sapPostingView({ ...held, postingUntil: '2026-11-02T10:09:59.000Z' }, NOW).state).toBe('LATE');
  });

  it('is retrying with the attempt, the next one and the reason; late too when it takes long', () => {
    const retrying = {
      ...record,
      state: 'PENDING' as const,
      attempts: 2,
      nextAttemptAt: '2026-11-02T10:11:00.000Z',
      lastError: 'SapUnavailableError: HTTP 503',
    };
    expect(sapPostingView(retrying, NOW)).toMatchObject({
      state: 'RETRYING',
      attempts: 2,
      nextAttemptAt: '2026-11-02T10:11:00.000Z',
      reason: 'SapUnavailableError: HTTP 503',
      late: false,
    });
    expect(sapPostingView({ ...retrying, createdAt: '2026-11-02T10:00:00.000Z' }, NOW)).toMatchObject({
      state: 'RETRYING',
      late: true,
    });
  });

  it('is failed with its reason, or posted with its document, and then never late', () => {
    const old = { ...record, createdAt: '2026-11-02T09:00:00.000Z', attempts: 5 };
    expect(sapPostingView({ ...old, state: 'FAILED', lastError: 'M8/000' }, NOW)).toMatchObject({
      state: 'FAILED',
      reason: 'M8/000',
      late: false,
    });
    const document = { number: '5105600001', fiscalYear: '2026' };
    expect(sapPostingView({ ...old, state: 'POSTED', sapDocument: document }, NOW)).toMatchObject({
      state: 'POSTED',
      document,
      late: false,
      reason: null,
    });
  });

  it('marks a row FAILED from the MIRO failure message, LATE two minutes after the approval', () => {
    const row = { status: 'ACCEPTED', approved: true, statusMessage: null, sapDocument: null };
    expect(sapPostingMark({ ...row, approvedAt: '2026-11-02T10:09:00.000Z' }, NOW)).toBeNull();
    expect(sapPostingMark({ ...row, approvedAt: '2026-11-02T10:07:00.000Z' }, NOW)).toBe('LATE');
    const failure = INVOICE_ERROR_MESSAGES.ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT;
    expect(sapPostingMark({ ...row, statusMessage: failure }, NOW)).toBe('FAILED');
    const posted = { ...row, approvedAt: '2026-11-02T09:00:00.000Z', sapDocument: { number: '5105600001' } };
    expect(sapPostingMark(posted, NOW)).toBeNull();
  });
});

describe('an invoice read a moment before its posting was stored', () => {
  const failure = INVOICE_ERROR_MESSAGES.ERROR_UNEXPECTED_EXCEPTION_DURING_MIRO_CREATION_REQUEST_SUBMIT;
  const document = { number: '5105600001', fiscalYear: '2026' };
  const posted = { state: 'POSTED' as const, sapDocument: document };

  it('shows the document of a POSTED record and not the failure the retry is clearing', () => {
    const stale = { id: 'F001-1', statusMessage: failure, sapDocument: null };
    expect(withPostedDocument(stale, posted)).toEqual({ id: 'F001-1', statusMessage: null, sapDocument: document });
    // Another message (a rejection's reason, a SUNAT observation) is the invoice's own: kept.
    const observed = { id: 'F001-2', statusMessage: 'Observada por SUNAT', sapDocument: undefined };
    expect(withPostedDocument(observed, posted)).toEqual({ ...observed, sapDocument: document });
  });

  it('leaves the invoice as read while the record is not POSTED, or once it carries the document', () => {
    const failed = { statusMessage: failure, sapDocument: null };
    expect(withPostedDocument(failed, { state: 'FAILED' })).toBe(failed);
    expect(withPostedDocument(failed, { state: 'PENDING', retriedAt: '2026-11-02T10:09:50.000Z' })).toBe(failed);
    expect(withPostedDocument(failed, null)).toBe(failed);
    const stored = { statusMessage: null, sapDocument: document };
    expect(withPostedDocument(stored, posted)).toBe(stored);
  });
});

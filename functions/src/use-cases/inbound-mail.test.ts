import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import yazl from 'yazl';
import { INBOUND_MAIL, type Invoice, type InboundMailMessage } from '@portal/shared';
import { describe, expect, it, vi } from 'vitest';
import type { Email } from '../adapters/email.js';
import type { FileIntakeOutcome, IncomingFiles } from './intake/intake-deps.js';
import type { Audience, FeedItem } from '../repositories/notifications.js';
import type { DocumentResult } from '../mail/answers.js';
import { makeJobLeaseSweeper } from '../jobs/job-leases.js';
import type { InboundMailDeps, MailCaller, SenderAccount } from './inbound-mail/inbound-mail-deps.js';
import { processInboundMail } from './inbound-mail/process-inbound-mail.js';
import { endMailFailed, type MailJobStore, type MailRecord } from '../mail/mail-job.js';

const DOMAIN = 'recepcion.grupo.pe';
const COMPANY = '20100070970';
const OTHER_COMPANY = '20601234567';
const SUPPLIER_RUC = '20456178325';
const SENDER: SenderAccount = {
  userId: 'user-1',
  email: 'facturacion@proveedor.pe',
  firstName: 'Ana',
  lastName: 'Quispe',
  taxIds: [SUPPLIER_RUC],
};

interface Attachment {
  filename: string;
  content: Buffer | string;
  contentType?: string;
  contentDisposition?: 'inline' | 'attachment';
}

async function mime(options: { from?: string; subject?: string; attachments?: Attachment[] } = {}): Promise<Buffer> {
  return new MailComposer({
    from: options.from ?? SENDER.email,
    to: `facturas+${COMPANY}@${DOMAIN}`,
    subject: options.subject ?? 'Facturas de noviembre',
    text: 'Adjunto mis comprobantes.',
    attachments: options.attachments ?? [],
  })
    .compile()
    .build();
}

/** A stand-in XML: the fake intake reads the customer's RUC from it as the UBL parser would. */
const xml = (number: string, customer = COMPANY, supplier = SUPPLIER_RUC) =>
  `<Invoice><ID>${number}</ID><Supplier>${supplier}</Supplier><Customer>${customer}</Customer></Invoice>`;
const PDF = Buffer.from('%PDF-1.4\n%fake\n');

function invoiceOf(number: string): Invoice {
  return {
    id: number,
    supplierId: SUPPLIER_RUC,
    type: 'FACTURA',
    clientName: 'Grupo Andino S.A.',
  } as unknown as Invoice;
}

/**
 * The records of messages and results, in memory, with the conditions the DynamoDB repository writes under: a
 * message's lease taken only when new or lapsed, renewed and ended only by its holder, each result written once.
 */
function memoryMailStore() {
  const records = new Map<string, MailRecord & { leaseOwner: string | null }>();
  const results = new Map<string, Map<string, DocumentResult>>();
  const store: MailJobStore = {
    get: async (id) => records.get(id) ?? null,
    async start(message, owner, now, until) {
      const record = records.get(message.messageId);
      if (!record) {
        records.set(message.messageId, {
          messageId: message.messageId,
          state: 'PROCESSING',
          outcome: null,
          answer: null,
          answered: false,
          attempts: 1,
          leaseUntil: until,
          leaseOwner: owner,
          resumedAt: null,
          message,
          about: null,
        });
        return { taken: 'STARTED', attempts: 1 };
      }
      if (record.state === 'DONE') return { taken: 'ENDED', attempts: record.attempts };
      if (record.leaseUntil !== null && record.leaseUntil > now.toISOString())
        return { taken: 'BUSY', attempts: record.attempts };
      const attempts = record.attempts + 1;
      records.set(message.messageId, {
        ...record,
        attempts,
        leaseOwner: owner,
        leaseUntil: until,
        resumedAt: now.toISOString(),
      });
      return { taken: 'RESUMED', attempts };
    },
    async renew(id, owner, until) {
      const record = records.get(id);
      if (record?.state !== 'PROCESSING' || record.leaseOwner !== owner) return false;
      records.set(id, { ...record, leaseUntil: until });
      return true;
    },
    async release(id, owner, now) {
      return store.renew(id, owner, now);
    },
    async describe(id, owner, about) {
      const record = records.get(id);
      if (record?.state !== 'PROCESSING' || record.leaseOwner !== owner) return false;
      records.set(id, { ...record, about });
      return true;
    },
    results: async (id) => new Map(results.get(id) ?? []),
    async record(id, result) {
      const of = results.get(id) ?? new Map<string, DocumentResult>();
      results.set(id, of);
      const key = result.base.toLowerCase();
      if (of.has(key)) return false;
      of.set(key, result);
      return true;
    },
    async complete(id, holder, outcome, answer) {
      const record = records.get(id);
      if (record?.state !== 'PROCESSING') return false;
      if ('owner' in holder ? record.leaseOwner !== holder.owner : record.leaseUntil !== holder.leaseUntil)
        return false;
      records.set(id, {
        ...record,
        state: 'DONE',
        outcome,
        answer,
        answered: false,
        leaseOwner: null,
        leaseUntil: null,
        message: null,
      });
      return true;
    },
    async markAnswered(id) {
      const record = records.get(id)!;
      records.set(id, { ...record, answer: null, answered: true });
    },
  };
  /** The sweeper's view: PROCESSING messages whose lease lapsed, and the move that keeps one from being sent twice. */
  const sweep = {
    lapsed: async (now: string) =>
      [...records.values()].filter(
        (record) => record.state === 'PROCESSING' && record.leaseUntil !== null && record.leaseUntil <= now,
      ),
    postpone: async (id: string, leaseUntil: string) => records.get(id)?.leaseUntil === leaseUntil,
  };
  return { store, records, results, sweep };
}

/** How the fake intake treats a document: as usual, a run that stops in it (never answers) or one that fails. */
type Stall = (files: IncomingFiles) => 'HANG' | 'THROW' | null;

const LEASE_MS = 15_000;
const MAX_ATTEMPTS = 3;

function harness(options: { senders?: SenderAccount[]; authenticatedDomain?: string | null; stall?: Stall } = {}) {
  const objects = new Map<string, Buffer>();
  const mail = memoryMailStore();
  const records = mail.records;
  const quota = new Map<string, number>();
  const sent: Email[] = [];
  const feed: { audiences: readonly Audience[]; item: FeedItem }[] = [];
  const registered: { caller: MailCaller; files: IncomingFiles }[] = [];
  const invoices = new Map<string, string>();
  let failNextSend = false;
  /** Runs that hung inside a document (HANG), each a run that stopped and will never answer. */
  let hung = 0;
  let now = new Date('2026-11-26T15:10:00Z');
  const senders = options.senders ?? [SENDER];

  const deps: InboundMailDeps = {
    raw: {
      get: async (_bucket, key) => objects.get(key) ?? null,
      remove: async (_bucket, key) => void objects.delete(key),
    },
    processed: mail.store,
    answerQuota: {
      take: async (sender, at) => {
        const key = `${sender}|${at.toISOString().slice(0, 13)}`;
        const used = quota.get(key) ?? 0;
        if (used >= INBOUND_MAIL.maxRefusalAnswersPerHour) return false;
        quota.set(key, used + 1);
        return true;
      },
    },
    senders: { find: async (email) => senders.find((sender) => sender.email === email) ?? null },
    companies: { exists: async (taxId) => taxId === COMPANY || taxId === OTHER_COMPANY },
    partiesOf: (bytes) => {
      const text = Buffer.from(bytes).toString();
      const customer = /<Customer>(\d+)<\/Customer>/.exec(text)?.[1];
      const supplier = /<Supplier>(\d+)<\/Supplier>/.exec(text)?.[1] ?? SUPPLIER_RUC;
      return customer ? { supplier, customer } : null;
    },
    fromFiles: async (caller, files): Promise<FileIntakeOutcome> => {
      registered.push({ caller, files });
      const stall = options.stall?.(files) ?? null;
      if (stall === 'HANG') {
        hung += 1;
        return new Promise<never>(() => undefined);
      }
      if (stall === 'THROW') throw new Error('DynamoDB is down');
      const text = Buffer.from(files.xml.bytes).toString();
      const number = /<ID>([^<]+)<\/ID>/.exec(text)?.[1];
      if (!number)
        return { outcome: 'REFUSED', code: 'ERROR_XML_INVALID', message: 'El XML no es un comprobante válido.' };
      const owner = invoices.get(number);
      if (owner && owner !== files.sourceKey) {
        return {
          outcome: 'ALREADY_EXISTS',
          invoiceId: number,
          code: 'ERROR_INVOICE_ALREADY_EXISTS',
          message: 'El comprobante ya existe.',
        };
      }
      invoices.set(number, files.sourceKey);
      return { outcome: 'ACCEPTED', invoice: invoiceOf(number), cdrWarning: null };
    },
    mailer: {
      send: async (email) => {
        if (failNextSend) {
          failNextSend = false;
          throw new Error('SES is down');
        }
        sent.push(email);
      },
    },
    feed: { record: async (audiences, item) => void feed.push({ audiences, item }) },
    clock: () => now,
    intakeDomain: DOMAIN,
    portalUrl: 'https://proveedores.grupo.pe',
    log: { info: () => undefined, warn: () => undefined },
    meter: { count: () => undefined },
    maxAttempts: MAX_ATTEMPTS,
    leaseMs: LEASE_MS,
  };
  const intake = { process: (message: InboundMailMessage) => processInboundMail(deps, message) };

  let sequence = 0;
  function messageOf(raw: Buffer, overrides: Partial<InboundMailMessage> & { messageId?: string } = {}) {
    const messageId = overrides.messageId ?? `msg-${++sequence}`;
    const key = `${INBOUND_MAIL.prefix}${messageId}`;
    objects.set(key, raw);
    const message: InboundMailMessage = {
      messageId,
      bucket: 'inbound',
      key,
      recipients: [`facturas+${COMPANY}@${DOMAIN}`],
      verdicts: {
        spf: 'PASS',
        dkim: 'PASS',
        dmarc: 'GRAY',
        authenticatedDomain: options.authenticatedDomain === undefined ? 'proveedor.pe' : options.authenticatedDomain,
      },
      ...overrides,
    };
    return message;
  }

  async function deliver(raw: Buffer, overrides: Partial<InboundMailMessage> & { messageId?: string } = {}) {
    const message = messageOf(raw, overrides);
    return { message, outcome: await intake.process(message) };
  }

  return {
    intake,
    deliver,
    messageOf,
    mail,
    clock: () => now,
    objects,
    records,
    sent,
    feed,
    registered,
    failSendOnce: () => void (failNextSend = true),
    /** Resolves once `count` runs have hung (the test goes on from a run stopped, whatever the machine's load). */
    hung: (count: number) => vi.waitFor(() => expect(hung).toBe(count)),
    later: (ms: number) => void (now = new Date(now.getTime() + ms)),
  };
}

describe('invoices by e-mail', () => {
  it('registers each XML with its PDF as the sender, answers per document and deletes the message', async () => {
    const h = harness();
    const raw = await mime({
      attachments: [
        { filename: 'F001-100.xml', content: xml('F001-100') },
        { filename: 'F001-100.pdf', content: PDF, contentType: 'application/pdf' },
        { filename: 'F001-101.XML', content: xml('F001-101') },
        { filename: 'R-F001-101.xml', content: '<ApplicationResponse/>' },
        { filename: 'logo.png', content: Buffer.from('png'), contentType: 'image/png', contentDisposition: 'inline' },
      ],
    });
    const { message, outcome } = await h.deliver(raw);

    expect(outcome).toBe('REGISTERED');
    expect(
      h.registered.map(({ files }) => [files.sourceKey, files.xml.name, files.pdf?.name, files.cdr?.name]),
    ).toEqual([
      [`mail/${message.messageId}/F001-100`, 'F001-100.xml', 'F001-100.pdf', undefined],
      [`mail/${message.messageId}/F001-101`, 'F001-101.XML', undefined, 'R-F001-101.xml'],
    ]);
    const caller = h.registered[0]!.caller;
    expect(caller).toMatchObject({ sub: 'user-1', level: 'SUPPLIER', activeCompany: SUPPLIER_RUC, signIn: 'EMAIL' });
    expect(caller.txId).toBe(message.messageId);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.to).toBe(SENDER.email);
    expect(h.sent[0]!.subject).toBe('Re: Facturas de noviembre');
    expect(h.sent[0]!.text).toContain('Se registraron sus 2 comprobantes');
    expect(h.sent[0]!.text).toContain(
      'F001-100: registrado para Grupo Andino S.A. Véalo en https://proveedores.grupo.pe/',
    );
    expect(h.feed).toHaveLength(1);
    expect(h.feed[0]!.audiences).toEqual([{ kind: 'USER', taxId: 'user-1' }]);
    expect(h.feed[0]!.item.message).toContain('2 de 2 comprobantes registrados');
    expect(h.objects.size).toBe(0);
  });

  it('refuses a document issued to another company of the group, naming both RUCs', async () => {
    const h = harness();
    const raw = await mime({
      attachments: [
        { filename: 'F001-7.xml', content: xml('F001-7', OTHER_COMPANY) },
        { filename: 'F001-8.xml', content: xml('F001-8') },
      ],
    });
    await h.deliver(raw);
    expect(h.registered.map(({ files }) => files.xml.name)).toEqual(['F001-8.xml']);
    expect(h.sent[0]!.text).toContain(
      `F001-7: no se registró. El comprobante está emitido al RUC ${OTHER_COMPANY}, pero se envió a la dirección de recepción del RUC ${COMPANY}.`,
    );
    expect(h.sent[0]!.text).toContain('se registró 1');
  });

  it('answers an unknown but authenticated sender in Spanish and stores nothing', async () => {
    const h = harness({ authenticatedDomain: 'desconocido.pe' });
    const raw = await mime({
      from: 'ventas@desconocido.pe',
      attachments: [{ filename: 'F1.xml', content: xml('F001-1') }],
    });
    const { outcome } = await h.deliver(raw);
    expect(outcome).toBe('UNKNOWN_SENDER');
    expect(h.registered).toEqual([]);
    expect(h.feed).toEqual([]);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.to).toBe('ventas@desconocido.pe');
    expect(h.sent[0]!.text).toContain('no pertenece a ninguna cuenta de proveedor');
    expect(h.sent[0]!.text).toContain('Qué hacer');
    expect(h.objects.size).toBe(0);
  });

  describe('an envelope sender other than the From', () => {
    const COLLEAGUE: SenderAccount = { ...SENDER, userId: 'user-2', email: 'tesoreria@proveedor.pe' };
    const STRANGER: SenderAccount = { ...SENDER, userId: 'user-3', email: 'ventas@otro.pe', taxIds: ['20512345678'] };
    const attachments = [{ filename: 'F001-40.xml', content: xml('F001-40') }];

    it('is taken when it is another address of the same supplier, or the same address in other case', async () => {
      const h = harness({ senders: [SENDER, COLLEAGUE] });
      const raw = await mime({ attachments });
      expect((await h.deliver(raw, { envelopeSender: COLLEAGUE.email })).outcome).toBe('REGISTERED');
      expect(h.registered[0]!.caller.email).toBe(SENDER.email);
      const again = await mime({ attachments: [{ filename: 'F001-41.xml', content: xml('F001-41') }] });
      expect((await h.deliver(again, { envelopeSender: 'FACTURACION@Proveedor.pe' })).outcome).toBe('REGISTERED');
    });

    it('is refused with an answer naming it when it is no address of the supplier: nothing registered', async () => {
      const h = harness({ senders: [SENDER, STRANGER] });
      const raw = await mime({ attachments });
      for (const envelope of ['bounces+x@listas.example.com', STRANGER.email]) {
        expect((await h.deliver(raw, { envelopeSender: envelope })).outcome).toBe('SENDER_MISMATCH');
        expect(h.sent.at(-1)!.to).toBe(SENDER.email);
        expect(h.sent.at(-1)!.text).toContain(`lo envió ${envelope}, que no es una dirección de su empresa`);
      }
      expect(h.registered).toEqual([]);
      expect(h.feed).toEqual([]);
      expect(h.objects.size).toBe(0);
    });

    it('drops a bounce (no envelope sender) without answering it', async () => {
      const h = harness();
      const raw = await mime({ attachments });
      expect((await h.deliver(raw, { envelopeSender: '' })).outcome).toBe('SENDER_MISMATCH');
      expect(h.registered).toEqual([]);
      expect(h.sent).toEqual([]);
    });

    it('is not asked of a message queued before the envelope was recorded', async () => {
      const h = harness();
      expect((await h.deliver(await mime({ attachments }))).outcome).toBe('REGISTERED');
    });
  });

  it('drops unauthenticated mail without an answer, even from a registered address', async () => {
    const h = harness({ authenticatedDomain: null });
    const raw = await mime({ attachments: [{ filename: 'F1.xml', content: xml('F001-1') }] });
    expect((await h.deliver(raw)).outcome).toBe('UNAUTHENTICATED');
    expect(h.sent).toEqual([]);
    expect(h.registered).toEqual([]);
    expect(h.objects.size).toBe(0);
  });

  it('does not take a passing domain other than the From domain as authentication', async () => {
    const h = harness({ authenticatedDomain: 'atacante.pe' });
    const raw = await mime({ attachments: [{ filename: 'F1.xml', content: xml('F001-1') }] });
    expect((await h.deliver(raw)).outcome).toBe('UNAUTHENTICATED');
    expect(h.sent).toEqual([]);
  });

  it('stops answering one sender after the hour has had its answers, and answers again the next hour', async () => {
    const h = harness({ authenticatedDomain: 'desconocido.pe' });
    const raw = await mime({ from: 'ventas@desconocido.pe' });
    const outcomes = [];
    for (let i = 0; i < INBOUND_MAIL.maxRefusalAnswersPerHour + 2; i++) outcomes.push((await h.deliver(raw)).outcome);
    expect(h.sent).toHaveLength(INBOUND_MAIL.maxRefusalAnswersPerHour);
    expect(outcomes.slice(-2)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
    expect(h.objects.size).toBe(0);
    h.later(3_600_000);
    await h.deliver(raw);
    expect(h.sent).toHaveLength(INBOUND_MAIL.maxRefusalAnswersPerHour + 1);
  });

  it('refuses a message without any XML, telling what to attach', async () => {
    const h = harness();
    const raw = await mime({
      attachments: [{ filename: 'factura.pdf', content: PDF, contentType: 'application/pdf' }],
    });
    expect((await h.deliver(raw)).outcome).toBe('REFUSED_FILES');
    expect(h.sent[0]!.text).toContain('No registramos nada de su correo: El correo no trae ningún XML de comprobante.');
    expect(h.registered).toEqual([]);
  });

  it('refuses a message with a hostile file whole: nothing registered, not even its XML', async () => {
    const h = harness();
    const raw = await mime({
      attachments: [
        { filename: 'F001-1.xml', content: xml('F001-1') },
        { filename: 'factura.pdf.exe', content: Buffer.from('MZ'), contentType: 'application/octet-stream' },
      ],
    });
    expect((await h.deliver(raw)).outcome).toBe('REFUSED_FILES');
    expect(h.registered).toEqual([]);
    expect(h.sent[0]!.text).toContain('«factura.pdf.exe» no es un XML, un PDF ni un ZIP');
    expect(h.objects.size).toBe(0);
  });

  it('refuses a zip bomb attached, with the zip reader’s reason', async () => {
    const h = harness();
    const zip = await zipOf([['F001-1.xml', Buffer.alloc(8 * 1024 * 1024, 0x41)]]);
    const raw = await mime({ attachments: [{ filename: 'lote.zip', content: zip, contentType: 'application/zip' }] });
    expect((await h.deliver(raw)).outcome).toBe('REFUSED_FILES');
    expect(h.registered).toEqual([]);
    expect(h.sent[0]!.text).toMatch(/«lote\.zip»: /);
  });

  it('registers the documents of an attached zip', async () => {
    const h = harness();
    const zip = await zipOf([
      ['F001-20.xml', Buffer.from(xml('F001-20'))],
      ['F001-20.pdf', PDF],
    ]);
    const raw = await mime({ attachments: [{ filename: 'lote.zip', content: zip, contentType: 'application/zip' }] });
    expect((await h.deliver(raw)).outcome).toBe('REGISTERED');
    expect(h.registered.map(({ files }) => [files.xml.name, files.pdf?.name])).toEqual([
      ['F001-20.xml', 'F001-20.pdf'],
    ]);
  });

  it('answers an address that names no company of the group', async () => {
    const h = harness();
    const raw = await mime({ attachments: [{ filename: 'F1.xml', content: xml('F001-1') }] });
    const { outcome } = await h.deliver(raw, { recipients: [`facturas+20999999999@${DOMAIN}`] });
    expect(outcome).toBe('UNKNOWN_ADDRESS');
    expect(h.registered).toEqual([]);
    expect(h.sent[0]!.text).toContain(`facturas+20123456789@${DOMAIN}`);
  });

  it('a redelivered message registers and answers nothing twice', async () => {
    const h = harness();
    const raw = await mime({ attachments: [{ filename: 'F001-5.xml', content: xml('F001-5') }] });
    const first = await h.deliver(raw, { messageId: 'same' });
    const again = await h.deliver(raw, { messageId: 'same' });
    expect([first.outcome, again.outcome]).toEqual(['REGISTERED', 'REGISTERED']);
    expect(h.registered).toHaveLength(1);
    expect(h.sent).toHaveLength(1);
  });

  it('after a crash before the answer went, the retry finds its invoice and sends the one answer', async () => {
    const h = harness();
    const raw = await mime({ attachments: [{ filename: 'F001-6.xml', content: xml('F001-6') }] });
    h.failSendOnce();
    await expect(h.deliver(raw, { messageId: 'crash' })).rejects.toThrow('SES is down');
    expect(h.objects.size).toBe(1);
    const retry = await h.deliver(raw, { messageId: 'crash' });
    expect(retry.outcome).toBe('REGISTERED');
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.text).toContain('F001-6: registrado');
    expect(h.objects.size).toBe(0);
  });

  it('the same document sent in a second e-mail is told as already registered', async () => {
    const h = harness();
    const raw = await mime({ attachments: [{ filename: 'F001-9.xml', content: xml('F001-9') }] });
    await h.deliver(raw);
    await h.deliver(raw);
    expect(h.sent[1]!.text).toContain('F001-9: ya estaba registrado en el portal');
  });

  it('refuses a message over the size bound without reading it', async () => {
    const h = harness();
    const raw = Buffer.concat([await mime(), Buffer.alloc(INBOUND_MAIL.maxMessageBytes)]);
    expect((await h.deliver(raw)).outcome).toBe('REFUSED_FILES');
    expect(h.sent[0]!.text).toContain('El correo ocupa más de 25 MB.');
  });

  it('registers as the RUC that issued the document when the account has several', async () => {
    const other = '20987654321';
    const h = harness({ senders: [{ ...SENDER, taxIds: [SUPPLIER_RUC, other] }] });
    await h.deliver(await mime({ attachments: [{ filename: 'F002-1.xml', content: xml('F002-1', COMPANY, other) }] }));
    expect(h.registered[0]!.caller.activeCompany).toBe(other);
  });

  it('does nothing for a message whose raw copy is gone', async () => {
    const h = harness();
    const { message } = await h.deliver(await mime({ attachments: [{ filename: 'F1.xml', content: xml('F001-1') }] }));
    h.records.clear();
    expect(await h.intake.process(message)).toBe('GONE');
    expect(h.sent).toHaveLength(1);
  });
});

describe('an e-mail whose run stops or fails (its lease)', () => {
  const three = () =>
    mime({
      subject: 'Lote de diciembre',
      attachments: ['F001-300', 'F001-301', 'F001-302'].map((number) => ({
        filename: `${number}.xml`,
        content: xml(number),
      })),
    });
  const sourcesOf = (h: ReturnType<typeof harness>) => h.registered.map(({ files }) => files.sourceKey.split('/')[2]);

  /** The sweeper over the harness's records, sending to a queue the test delivers from. */
  function sweeperOf(h: ReturnType<typeof harness>) {
    const queue: InboundMailMessage[] = [];
    const sweeper = makeJobLeaseSweeper({
      batches: { lapsed: async () => [], postpone: async () => true, end: async () => true },
      intakeBatchesQueue: { send: async () => undefined },
      mail: {
        ...h.mail.sweep,
        fail: (record, now) =>
          endMailFailed(
            { processed: h.mail.store, feed: { record: async () => undefined }, portalUrl: null },
            record,
            { leaseUntil: record.leaseUntil },
            now,
          ),
      },
      inboundMailQueue: { send: async (body) => void queue.push(body as InboundMailMessage) },
      clock: h.clock,
      log: { info: () => undefined, warn: () => undefined },
      maxAttempts: MAX_ATTEMPTS,
      resendAfterMs: 2 * LEASE_MS,
    });
    return { sweeper, queue };
  }

  it('is resumed where it stopped once its lease lapsed: each document once, the answer and the feed say so', async () => {
    let stopped = false;
    const h = harness({
      stall: (files) => (!stopped && files.sourceKey.endsWith('F001-301') ? ((stopped = true), 'HANG') : null),
    });
    const message = h.messageOf(await three(), { messageId: 'stopped' });
    void h.intake.process(message); // the run that stops in the middle of the second document, never to answer

    await h.hung(1);
    expect(h.records.get('stopped')).toMatchObject({ state: 'PROCESSING', attempts: 1 });
    expect([...h.mail.results.get('stopped')!.keys()]).toEqual(['f001-300']);
    // While its lease holds, another delivery leaves the message to it, and the sweeper finds nothing.
    expect(await h.intake.process(message)).toBe('BUSY');
    const { sweeper, queue } = sweeperOf(h);
    expect(await sweeper.sweep()).toEqual({ resumed: 0, failed: 0 });

    h.later(LEASE_MS + 1);
    expect(await sweeper.sweep()).toEqual({ resumed: 1, failed: 0 });
    expect(queue).toEqual([message]);
    expect(await h.intake.process(queue[0]!)).toBe('REGISTERED');

    // The first document is not registered again; the second, whose run stopped inside, finds its invoice.
    expect(sourcesOf(h)).toEqual(['F001-300', 'F001-301', 'F001-301', 'F001-302']);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.text).toContain('Se registraron sus 3 comprobantes');
    expect(h.sent[0]!.text).toContain('se interrumpió y se reanudó; cada comprobante se registró una sola vez');
    expect(h.feed.map(({ item }) => item.message)).toEqual([
      'Se procesó su correo «Lote de diciembre» (reanudado tras una interrupción): 3 de 3 comprobantes registrados. ' +
        'Le enviamos el detalle por correo.',
    ]);
    expect(h.records.get('stopped')).toMatchObject({ state: 'DONE', outcome: 'REGISTERED', attempts: 2 });
    expect(h.objects.size).toBe(0);
  });

  it('ends FAILED when its runs keep failing: the sender told what was registered, the raw copy deleted', async () => {
    const h = harness({ stall: (files) => (files.sourceKey.endsWith('F001-302') ? 'THROW' : null) });
    const message = h.messageOf(await three(), { messageId: 'failing' });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      // A run that fails lets go of its lease at once: the next delivery takes the message without waiting.
      await expect(h.intake.process(message)).rejects.toThrow('DynamoDB is down');
      if (attempt < MAX_ATTEMPTS)
        expect(h.records.get('failing')).toMatchObject({ state: 'PROCESSING', attempts: attempt });
    }
    expect(sourcesOf(h)).toEqual(['F001-300', 'F001-301', 'F001-302', 'F001-302', 'F001-302']);
    expect(h.records.get('failing')).toMatchObject({ state: 'DONE', outcome: 'FAILED' });
    expect(h.sent).toHaveLength(1);
    const text = h.sent[0]!.text;
    expect(text).toContain('No pudimos terminar de procesar su correo');
    expect(text).toContain('se registraron 2 de 3');
    expect(text).toContain('• F001-300: registrado para Grupo Andino S.A.');
    expect(text).toContain('El comprobante restante no se registró.');
    expect(h.feed.at(-1)!.item.message).toContain('No se pudo terminar de procesar su correo «Lote de diciembre»');
    expect(h.objects.size).toBe(0);
    // A later delivery of the same message (its queue's last copy) sends nothing more and registers nothing.
    expect(await h.intake.process(message)).toBe('FAILED');
    expect(h.sent).toHaveLength(1);
    expect(h.registered).toHaveLength(5);
  });

  it('ends FAILED by the sweeper when its runs kept stopping, answered once by the worker it hands it to', async () => {
    const h = harness({ stall: (files) => (files.sourceKey.endsWith('F001-301') ? 'HANG' : null) });
    const message = h.messageOf(await three(), { messageId: 'stopping' });
    const { sweeper, queue } = sweeperOf(h);
    void h.intake.process(message);
    for (let run = 2; run <= MAX_ATTEMPTS; run++) {
      await h.hung(run - 1);
      h.later(2 * LEASE_MS + 1);
      expect(await sweeper.sweep()).toEqual({ resumed: 1, failed: 0 });
      void h.intake.process(queue.at(-1)!);
    }
    await h.hung(MAX_ATTEMPTS);
    h.later(2 * LEASE_MS + 1);
    expect(await sweeper.sweep()).toEqual({ resumed: 0, failed: 1 });
    expect(h.records.get('stopping')).toMatchObject({ state: 'DONE', outcome: 'FAILED', attempts: MAX_ATTEMPTS });
    expect(await h.intake.process(queue.at(-1)!)).toBe('FAILED');
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.text).toContain('se registró 1 de 3');
    expect(h.sent[0]!.text).toContain('Los 2 comprobantes restantes no se registraron.');
    expect(h.objects.size).toBe(0);
  });
});

function zipOf(entries: [string, Buffer][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of entries) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

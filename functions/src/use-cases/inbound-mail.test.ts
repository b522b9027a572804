import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import yazl from 'yazl';
import { INBOUND_MAIL, type Invoice, type InboundMailMessage } from '@portal/shared';
import { describe, expect, it } from 'vitest';
import type { Email } from '../adapters/email.js';
import type { FileIntakeOutcome, IncomingFiles } from './intake.js';
import type { Audience, FeedItem } from '../repositories/notifications.js';
import { makeInboundMail, type MailCaller, type ProcessedMail, type SenderAccount } from './inbound-mail.js';

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

function harness(options: { senders?: SenderAccount[]; authenticatedDomain?: string | null } = {}) {
  const objects = new Map<string, Buffer>();
  const records = new Map<string, ProcessedMail>();
  const quota = new Map<string, number>();
  const sent: Email[] = [];
  const feed: { audiences: readonly Audience[]; item: FeedItem }[] = [];
  const registered: { caller: MailCaller; files: IncomingFiles }[] = [];
  const invoices = new Map<string, string>();
  let failNextSend = false;
  let now = new Date('2026-11-26T15:10:00Z');
  const senders = options.senders ?? [SENDER];

  const intake = makeInboundMail({
    raw: {
      get: async (_bucket, key) => objects.get(key) ?? null,
      remove: async (_bucket, key) => void objects.delete(key),
    },
    processed: {
      get: async (id) => records.get(id) ?? null,
      create: async (record) => {
        if (records.has(record.messageId)) return false;
        records.set(record.messageId, record);
        return true;
      },
      markAnswered: async (id) => {
        const record = records.get(id)!;
        records.set(id, { ...record, answer: null, answered: true });
      },
    },
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
  });

  let sequence = 0;
  async function deliver(raw: Buffer, overrides: Partial<InboundMailMessage> & { messageId?: string } = {}) {
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
    return { message, outcome: await intake.process(message) };
  }

  return {
    intake,
    deliver,
    objects,
    records,
    sent,
    feed,
    registered,
    failSendOnce: () => void (failNextSend = true),
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

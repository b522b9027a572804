import { describe, expect, it } from 'vitest';
import { INBOUND_MAIL, keys, routes, type InboundMailMessage, type InvoiceDetail } from '@portal/shared';
import { CLIENTS, tenantFixture, SUPPLIERS } from '../support/tenant.js';
import { inviteSupplier, type InvitedSupplier } from '../support/accounts.js';
import { call, idTokenOf } from '../support/api.js';
import { queuesDrained, sendToQueue, table } from '../support/fixtures.js';
import { runSchedule } from '../support/schedules.js';
import { freshCorrelative } from '../support/invoices.js';
import {
  answersTo,
  freshSender,
  inboundObject,
  processed,
  rawMessageStored,
  sendMail,
  storeRawMessage,
} from '../support/mail.js';
import { demoUser, stage } from '../support/stage.js';
import { MINIMAL_PDF } from '../support/uploads.js';
import { until } from '../support/until.js';

/**
 * Invoices by e-mail (docs/intake-channels.md "Correo"): real SMTP to the stage's server, DKIM-signed with
 * the key the stage's DNS publishes; the worker that runs in AWS registers, answers and deletes.
 */
const FIXTURE = tenantFixture('ubl/factura-ubl21-credito.xml');
const FIXTURE_SUPPLIER = SUPPLIERS[0]!.taxId;

/** A factura of `supplier` to CLIENTS[0] with a correlative of its own. */
function factura(supplier: InvitedSupplier) {
  const correlative = freshCorrelative();
  const number = `F001-${correlative.padStart(8, '0')}`;
  const xml = Buffer.from(FIXTURE.replaceAll('F001-00000458', number).replaceAll(FIXTURE_SUPPLIER, supplier.ruc));
  return { xml, base: number, invoiceId: `F001-${Number(correlative)}` };
}

const managerToken = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);

async function invoiceOf(supplier: InvitedSupplier, invoiceId: string) {
  return call<InvoiceDetail>(routes.getInvoice, {
    token: await managerToken(),
    path: { supplierId: supplier.ruc, invoiceType: 'FACTURA', invoiceId },
  });
}

const answerWith = (address: string, subject: string) =>
  until(async () => (await answersTo(address)).find((mail) => mail.subject === `Re: ${subject}`), {
    message: `the answer to ${address}`,
  });

describe('invoices by e-mail, over SMTP', () => {
  it('an e-mail from a registered supplier with the XML and its PDF becomes an invoice, and its sender the answer', async () => {
    const supplier = await inviteSupplier();
    const document = factura(supplier);
    const subject = `Factura ${document.base}`;
    const { messageId } = await sendMail({
      from: supplier.email,
      toCompany: CLIENTS[0]!.taxId,
      subject,
      attachments: [
        { filename: `${document.base}.xml`, content: document.xml, contentType: 'application/xml' },
        { filename: `${document.base}.pdf`, content: MINIMAL_PDF, contentType: 'application/pdf' },
      ],
    });

    const answer = await answerWith(supplier.email, subject);
    expect(answer.text).toContain('Se registró su comprobante en el Portal de Proveedores.');
    expect(answer.text).toContain(`${document.invoiceId}: registrado para ${CLIENTS[0]!.name}`);
    expect(answer.text).toContain(`${stage().webUrl}/`);

    const invoice = await invoiceOf(supplier, document.invoiceId);
    expect(invoice.status).toBe(200);
    expect(invoice.body).toMatchObject({ supplierId: supplier.ruc, client: CLIENTS[0]!.taxId, status: 'PENDING' });
    expect(invoice.body.pdfUrl).not.toBeNull();
    expect(await rawMessageStored(messageId)).toBe(false);

    // The queue delivers the same message again (a worker that died after the answer): nothing twice.
    const redelivery: InboundMailMessage = {
      messageId,
      bucket: inboundObject(messageId).Bucket,
      key: inboundObject(messageId).Key,
      recipients: [`${INBOUND_MAIL.localPart}+${CLIENTS[0]!.taxId}@${stage().intakeMailDomain}`],
      verdicts: { spf: 'PASS', dkim: 'PASS', dmarc: 'GRAY', authenticatedDomain: 'pruebas.pe' },
    };
    await sendToQueue('inboundMail', redelivery);
    await sendToQueue('inboundMail', redelivery);
    await queuesDrained(['inboundMail']);
    expect((await answersTo(supplier.email)).filter((mail) => mail.subject === `Re: ${subject}`)).toHaveLength(1);

    // The supplier sends the same e-mail again: told it is there already, still one invoice.
    const again = await sendMail({
      from: supplier.email,
      toCompany: CLIENTS[0]!.taxId,
      subject,
      attachments: [{ filename: `${document.base}.xml`, content: document.xml, contentType: 'application/xml' }],
    });
    await processed(again.messageId);
    const answers = await until(
      async () => {
        const all = (await answersTo(supplier.email)).filter((mail) => mail.subject === `Re: ${subject}`);
        return all.length === 2 ? all : undefined;
      },
      { message: 'the second answer' },
    );
    expect(answers[1]!.text).toContain(`${document.invoiceId}: ya estaba registrado en el portal`);
  });

  it('an e-mail whose worker stopped mid-way is resumed by the next sweep: each document once, «se reanudó»', async () => {
    const supplier = await inviteSupplier();
    const documents = [factura(supplier), factura(supplier), factura(supplier)];
    const subject = `Lote ${documents[0]!.base}`;
    const mail = {
      from: supplier.email,
      toCompany: CLIENTS[0]!.taxId,
      subject,
      attachments: documents.map((document) => ({
        filename: `${document.base}.xml`,
        content: document.xml,
        contentType: 'application/xml',
      })),
    };
    const { messageId } = await sendMail(mail);
    await answerWith(supplier.email, subject);

    // As a worker killed after the first document leaves it: the raw copy still there, the last two results not
    // recorded (their invoices were committed), the record PROCESSING under the lease of a run that is gone, which
    // lapsed ten seconds ago; and no queue message (it is in flight, invisible for the queue's visibility timeout).
    await storeRawMessage(messageId, mail);
    const db = table();
    for (const document of documents.slice(1)) {
      await db.delete(keys.inboundMessageResult(messageId, document.base.toLowerCase()));
    }
    const stored = (await db.get(keys.inboundMessage(messageId)))!;
    const lapsedAt = new Date(Date.now() - 10_000).toISOString();
    const message: InboundMailMessage = {
      messageId,
      bucket: inboundObject(messageId).Bucket,
      key: inboundObject(messageId).Key,
      recipients: [`${INBOUND_MAIL.localPart}+${CLIENTS[0]!.taxId}@${stage().intakeMailDomain}`],
      envelopeSender: supplier.email,
      verdicts: { spf: 'PASS', dkim: 'PASS', dmarc: 'GRAY', authenticatedDomain: 'pruebas.pe' },
    };
    await db.put({
      ...stored,
      state: 'PROCESSING',
      message,
      attempts: 1,
      answered: false,
      leaseOwner: 'a-run-that-crashed',
      leaseUntil: lapsedAt,
      gsi1pk: keys.jobLeases,
      gsi1sk: `${lapsedAt}#${keys.inboundMessage(messageId).pk}`,
    });
    const crashedAt = Date.now();

    // The outbox sweeper's next run (every minute in AWS; driven here) finds the lapsed lease and hands it over.
    await runSchedule('OutboxSweeper');
    const resumed = await until(
      async () =>
        (await answersTo(supplier.email)).find((answer) => answer.text.includes('se interrumpió y se reanudó')),
      { message: 'the answer of the resumed run' },
    );
    expect(Date.now() - crashedAt).toBeLessThan(60_000);
    expect(resumed.text).toContain('Se registraron sus 3 comprobantes');
    for (const document of documents) {
      expect(resumed.text).toContain(`${document.invoiceId}: registrado para`);
      expect((await invoiceOf(supplier, document.invoiceId)).status).toBe(200);
    }
    expect(await db.get(keys.inboundMessage(messageId))).toMatchObject({
      state: 'DONE',
      outcome: 'REGISTERED',
      attempts: 2,
      answered: true,
    });
    expect(await rawMessageStored(messageId)).toBe(false);
  });

  it('an unknown sender whose domain authenticates gets a Spanish answer saying what to do; nothing is stored', async () => {
    const supplier = await inviteSupplier();
    const document = factura(supplier);
    const stranger = freshSender();
    const subject = `Comprobante ${document.base}`;
    const { messageId } = await sendMail({
      from: stranger,
      toCompany: CLIENTS[0]!.taxId,
      subject,
      attachments: [{ filename: `${document.base}.xml`, content: document.xml, contentType: 'application/xml' }],
    });
    const answer = await answerWith(stranger, subject);
    expect(answer.text).toContain(`la dirección ${stranger} no pertenece a ninguna cuenta de proveedor`);
    expect(answer.text).toContain('Qué hacer: envíe el correo desde la dirección de su cuenta del portal');
    expect(await rawMessageStored(messageId)).toBe(false);
    expect((await invoiceOf(supplier, document.invoiceId)).status).toBe(404);
  });

  it('unauthenticated mail (a foreign DKIM key, an envelope SPF does not allow) is dropped: no answer, nothing stored', async () => {
    const supplier = await inviteSupplier();
    const document = factura(supplier);
    const subject = `Suplantado ${document.base}`;
    const { messageId } = await sendMail({
      from: supplier.email,
      envelopeFrom: 'rebotes@sin-registros.pe',
      dkim: 'foreign',
      toCompany: CLIENTS[0]!.taxId,
      subject,
      attachments: [{ filename: `${document.base}.xml`, content: document.xml, contentType: 'application/xml' }],
    });
    await processed(messageId);
    // An answer would already be in the mailbox: the worker sends it before it deletes the message.
    expect(await answersTo(supplier.email)).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ subject: `Re: ${subject}` })]),
    );
    expect((await invoiceOf(supplier, document.invoiceId)).status).toBe(404);
  });

  it("a supplier's signed e-mail relayed under another envelope sender is answered and not registered", async () => {
    const supplier = await inviteSupplier();
    const document = factura(supplier);
    const subject = `Reenviado ${document.base}`;
    const relay = `rebotes+${document.base.toLowerCase()}@listas.example.com`;
    const { messageId } = await sendMail({
      from: supplier.email,
      envelopeFrom: relay,
      toCompany: CLIENTS[0]!.taxId,
      subject,
      attachments: [{ filename: `${document.base}.xml`, content: document.xml, contentType: 'application/xml' }],
    });
    const answer = await answerWith(supplier.email, subject);
    expect(answer.text).toContain(`lo envió ${relay}, que no es una dirección de su empresa`);
    expect(await rawMessageStored(messageId)).toBe(false);
    expect((await invoiceOf(supplier, document.invoiceId)).status).toBe(404);
  });

  it('more refused e-mails than the hour allows from one sender: the answers stop', async () => {
    const stranger = freshSender();
    const sent = [];
    for (let i = 0; i < INBOUND_MAIL.maxRefusalAnswersPerHour + 2; i++) {
      sent.push(
        await sendMail({ from: stranger, toCompany: CLIENTS[0]!.taxId, subject: `Intento ${i}`, attachments: [] }),
      );
    }
    for (const { messageId } of sent) await processed(messageId);
    const answers = await answersTo(stranger);
    expect(answers).toHaveLength(INBOUND_MAIL.maxRefusalAnswersPerHour);
    expect(answers.every((mail) => mail.text.includes('no pertenece a ninguna cuenta de proveedor'))).toBe(true);
  });

  it('an XML sent to another company’s address is refused with the reason, not registered', async () => {
    const supplier = await inviteSupplier();
    const document = factura(supplier);
    const subject = `Dirección equivocada ${document.base}`;
    await sendMail({
      from: supplier.email,
      toCompany: CLIENTS[1]!.taxId,
      subject,
      attachments: [{ filename: `${document.base}.xml`, content: document.xml, contentType: 'application/xml' }],
    });
    const answer = await answerWith(supplier.email, subject);
    expect(answer.text).toContain(
      `${document.base}: no se registró. El comprobante está emitido al RUC ${CLIENTS[0]!.taxId}, pero se envió a la ` +
        `dirección de recepción del RUC ${CLIENTS[1]!.taxId}.`,
    );
    expect((await invoiceOf(supplier, document.invoiceId)).status).toBe(404);
  });

  it('a registered supplier’s e-mail with a file that is no document is refused whole: its XML is not registered', async () => {
    const supplier = await inviteSupplier();
    const document = factura(supplier);
    const subject = `Con ejecutable ${document.base}`;
    const { messageId } = await sendMail({
      from: supplier.email,
      toCompany: CLIENTS[0]!.taxId,
      subject,
      attachments: [
        { filename: `${document.base}.xml`, content: document.xml, contentType: 'application/xml' },
        { filename: 'visor.exe', content: Buffer.from('MZ\x90\x00'), contentType: 'application/octet-stream' },
      ],
    });
    const answer = await answerWith(supplier.email, subject);
    expect(answer.text).toContain('El adjunto «visor.exe» no es un XML, un PDF ni un ZIP');
    expect(await rawMessageStored(messageId)).toBe(false);
    expect((await invoiceOf(supplier, document.invoiceId)).status).toBe(404);
  });

  it('the SMTP server takes mail only for the intake addresses', async () => {
    await expect(
      sendMail({ from: freshSender(), toCompany: 'postmaster', subject: 'Hola', attachments: [] }),
    ).rejects.toThrow(/550/);
  });
});

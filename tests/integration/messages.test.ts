import { describe, expect, it } from 'vitest';
import {
  TEXT_LIMITS,
  keys,
  routes,
  withCheckDigit,
  type ErrorBody,
  type FileLink,
  type Invoice,
  type InvoiceMessages,
  type InvoiceSummary,
  type PostedMessage,
} from '@portal/shared';
import { makeConversations } from '../../functions/src/repositories/conversations.js';
import { makeInvoiceStore } from '../../functions/src/repositories/invoice-store.js';
import { makeOutgoing } from '../../functions/src/repositories/outgoing.js';
import { conversationCalls } from '../../functions/src/use-cases/conversations/conversation-calls.fake.js';
import type { Caller } from '../../functions/src/http/caller.js';
import { CLIENTS, SUPPLIERS } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { mailbox, reviewFixture, table, stageDocumentClient } from '../support/fixtures.js';
import { demoAccount, demoUser, stage } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs } from '../support/uploads.js';
import { until } from '../support/until.js';

// Messages on an invoice and the "Observada" mark, on the local stage.

const supplierToken = () => idTokenOf(demoUser('SUPPLIER').username, demoUser('SUPPLIER').password);
const managerToken = () => idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);
const otherSupplier = demoAccount('proveedor2@demo.pe');
const otherSupplierToken = () => idTokenOf(otherSupplier.username, otherSupplier.password);

const pathOf = (invoice: Invoice) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

async function freshInvoice(client = CLIENTS[0]!, supplier = SUPPLIERS[0]!): Promise<Invoice> {
  const { invoice } = await reviewFixture({ client: client.taxId, clientName: client.name, supplier, kind: null });
  return invoice;
}

async function waiting(token: string): Promise<number> {
  const answer = await call<{ count: number }>(routes.countWaitingConversations, { token });
  expect(answer.status).toBe(200);
  return answer.body.count;
}

const firstError = (body: unknown) => (body as ErrorBody).errors[0]!;
const messageOf = (body: unknown) => (body as ErrorBody).message;

describe('messages on an invoice', () => {
  it('a manager observes an invoice asking for a guía de remisión; the supplier sees the count, gets the e-mail, answers with a PDF and the mark clears', async () => {
    const invoice = await freshInvoice();
    const [supplier, manager] = [await supplierToken(), await managerToken()];
    const supplierBefore = await waiting(supplier);
    const managerBefore = await waiting(manager);
    const ask = `Por favor adjunte la guía de remisión de la ${invoice.id}.`;

    const observed = await call<PostedMessage>(routes.observeInvoice, {
      token: manager,
      path: pathOf(invoice),
      body: { text: ask },
    });
    expect(observed.status).toBe(201);
    expect(observed.body.observation).toMatchObject({ reason: ask, by: 'Carmen Gutiérrez' });
    expect(await waiting(supplier)).toBe(supplierBefore + 1);

    // The list shows it among "Observadas", with the mark on the row, and counts it.
    const list = await call<{ items: InvoiceSummary[] }>(routes.listInvoices, {
      token: supplier,
      query: { observed: 'true', limit: 100 },
    });
    const row = list.body.items.find((item) => item.id === invoice.id);
    expect(row?.observation?.reason).toBe(ask);
    expect(list.body.items.every((item) => item.observation)).toBe(true);
    const counted = await call<{ count: number; exact: boolean }>(routes.countInvoices, {
      token: supplier,
      query: { observed: 'true' },
    });
    expect(counted.body).toEqual({ count: list.body.items.length, exact: true });

    // The supplier's account (reception on) is e-mailed through the notifications worker.
    const mails = await until(
      async () => {
        const found = (await mailbox()).filter(
          (mail) => mail.text.includes(invoice.id) && mail.text.includes('observó'),
        );
        return found.length > 0 && found;
      },
      { message: 'the e-mail to the supplier', timeout: 20_000 },
    );
    expect(mails.map((mail) => mail.to[0])).toEqual([demoUser('SUPPLIER').username]);
    expect(mails[0]!.text).toContain('guía de remisión');

    const key = await uploadAs(supplier, 'MESSAGE_ATTACHMENT', MINIMAL_PDF, 'application/pdf', 'guía de remisión.pdf');
    const answered = await call<PostedMessage>(routes.postInvoiceMessage, {
      token: supplier,
      path: pathOf(invoice),
      body: { text: 'Adjuntamos la guía de remisión.', attachments: [key] },
    });
    expect(answered.status).toBe(201);
    expect(answered.body.observation).toBeNull();
    expect(answered.body.conversation).toMatchObject({
      messageCount: 2,
      lastMessageSide: 'SUPPLIER',
      waitingOn: 'STAFF',
    });
    expect(await waiting(supplier)).toBe(supplierBefore);
    expect(await waiting(manager)).toBe(managerBefore + 1);

    const conversation = await call<InvoiceMessages>(routes.listInvoiceMessages, {
      token: manager,
      path: pathOf(invoice),
    });
    expect(conversation.body.items.map((m) => [m.authorName, m.authorRole, m.text])).toEqual([
      ['Carmen Gutiérrez', 'MANAGER', ask],
      ['Ana Salazar', 'SUPPLIER', 'Adjuntamos la guía de remisión.'],
    ]);
    const [, reply] = conversation.body.items;
    expect(reply!.attachments).toEqual([
      { key, fileName: 'guía de remisión.pdf', contentType: 'application/pdf', size: MINIMAL_PDF.length },
    ]);

    // The attachment is a download of its checked type, for staff as for the supplier.
    const link = await call<FileLink>(routes.getInvoiceMessageFile, {
      token: manager,
      path: { ...pathOf(invoice), messageId: reply!.id },
      query: { index: 0 },
    });
    expect(link.status).toBe(200);
    const file = await fetch(link.body.url);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(MINIMAL_PDF)).toBe(true);

    // The audit trail records the mark, the answer that cleared it, who wrote and what.
    const trail = await call<{
      items: {
        action: string;
        note: string | null;
        actor: { name: string };
        changes: { field: string; before: unknown; after: unknown }[];
      }[];
    }>(routes.listInvoiceHistory, { token: manager, path: pathOf(invoice) });
    expect(trail.status).toBe(200);
    const [observedRecord, answerRecord] = trail.body.items.filter((event) =>
      ['OBSERVED', 'MESSAGE_POSTED'].includes(event.action),
    );
    expect(observedRecord).toMatchObject({
      action: 'OBSERVED',
      note: ask,
      actor: { name: 'Carmen Gutiérrez' },
      changes: [{ field: 'observation', before: null, after: ask }],
    });
    expect(answerRecord).toMatchObject({
      action: 'MESSAGE_POSTED',
      note: 'Adjuntamos la guía de remisión.',
      actor: { name: 'Ana Salazar' },
      changes: [{ field: 'observation', before: ask, after: null }],
    });

    // The company's staff hear of the answer in their feed.
    await until(
      async () => {
        const items = (await call<{ items: { message: string }[] }>(routes.listNotifications, { token: manager })).body
          .items;
        return items.some((n) => n.message.includes(invoice.id) && n.message.includes('Adjuntamos'));
      },
      { message: 'the answer in the company feed', timeout: 20_000 },
    );
  });

  it('keeps markup as plain text, strips control characters, and refuses empty or oversized messages in Spanish', async () => {
    const invoice = await freshInvoice();
    const supplier = await supplierToken();
    const hostile = '<script>alert(1)</script><img src=x onerror="alert(2)"> ¿y la guía?';
    const posted = await call<PostedMessage>(routes.postInvoiceMessage, {
      token: supplier,
      path: pathOf(invoice),
      body: { text: `  ${hostile}\u0000\u0007\u202e  ` },
    });
    expect(posted.status).toBe(201);
    expect(posted.body.message.text).toBe(hostile);
    const stored = await call<InvoiceMessages>(routes.listInvoiceMessages, { token: supplier, path: pathOf(invoice) });
    expect(stored.body.items.map((m) => m.text)).toEqual([hostile]);

    const empty = await call(routes.postInvoiceMessage, {
      token: supplier,
      path: pathOf(invoice),
      body: { text: ' \n\t ' },
    });
    expect(empty.status).toBe(400);
    expect(firstError(empty.body).code).toBe('ERROR_MESSAGE_EMPTY');
    expect(messageOf(empty.body)).toBe('Escriba el mensaje antes de enviarlo.');

    const long = await call(routes.postInvoiceMessage, {
      token: supplier,
      path: pathOf(invoice),
      body: { text: 'a'.repeat(TEXT_LIMITS.message + 1) },
    });
    expect(long.status).toBe(400);
    expect(firstError(long.body).code).toBe('ERROR_MESSAGE_TOO_LONG');
    expect(messageOf(long.body)).toBe(`El mensaje no puede superar los ${TEXT_LIMITS.message} caracteres.`);
    const huge = await call(routes.postInvoiceMessage, {
      token: supplier,
      path: pathOf(invoice),
      body: { text: 'a'.repeat(TEXT_LIMITS.messageRaw + 1) },
    });
    expect(huge.status).toBe(400);
    expect(messageOf(huge.body)).toContain('no puede superar los 2000 caracteres');

    const tooMany = await call(routes.postInvoiceMessage, {
      token: supplier,
      path: pathOf(invoice),
      body: { text: 'Cuatro archivos', attachments: ['a', 'b', 'c', 'd'] },
    });
    expect(tooMany.status).toBe(400);

    const expectRefused = async (text: string, attachment: string, code: string) => {
      const refused = await call(routes.postInvoiceMessage, {
        token: supplier,
        path: pathOf(invoice),
        body: { text, attachments: [attachment] },
      });
      expect(refused.status).toBe(400);
      expect(firstError(refused.body).code).toBe(code);
    };
    // An attachment whose bytes are not what it says is refused (and deleted), and nothing is posted.
    const fake = await uploadAs(
      supplier,
      'MESSAGE_ATTACHMENT',
      Buffer.from('<html><script>x</script></html>'),
      'image/png',
      'foto.png',
    );
    await expectRefused('Foto', fake, 'ERROR_MESSAGE_ATTACHMENT_INVALID');
    // An upload of the other side (the company's) is not the supplier's to attach: not found.
    const staffUpload = await uploadAs(
      await managerToken(),
      'MESSAGE_ATTACHMENT',
      MINIMAL_PDF,
      'application/pdf',
      'oc.pdf',
    );
    await expectRefused('Con el archivo del gestor', staffUpload, 'ERROR_MESSAGE_ATTACHMENT_NOT_FOUND');
    const after = await call<InvoiceMessages>(routes.listInvoiceMessages, { token: supplier, path: pathOf(invoice) });
    expect(after.body.items).toHaveLength(1);
  });

  it("answers another supplier's invoice, and another company's, as not found; a supplier cannot observe", async () => {
    const invoice = await freshInvoice();
    // Of a supplier that exists only here: the invoice listings' tests compare the demo suppliers' lists exactly.
    const foreignCompany = await freshInvoice(CLIENTS[2]!, {
      taxId: withCheckDigit('2070000061'),
      name: 'Proveedor de Otra Sociedad S.A.C.',
    });
    const intruder = await otherSupplierToken();
    for (const def of [routes.listInvoiceMessages, routes.postInvoiceMessage]) {
      const answer = await call(def, {
        token: intruder,
        path: pathOf(invoice),
        body: def.method === 'POST' ? { text: 'Hola' } : undefined,
      });
      expect(answer.status).toBe(404);
      expect(firstError(answer.body).code).toBe('ERROR_INVOICE_NOT_FOUND');
    }
    const manager = await managerToken();
    for (const def of [routes.listInvoiceMessages, routes.postInvoiceMessage, routes.observeInvoice]) {
      const answer = await call(def, {
        token: manager,
        path: pathOf(foreignCompany),
        body: def.method === 'POST' ? { text: 'Hola' } : undefined,
      });
      expect(answer.status).toBe(404);
    }
    const supplier = await supplierToken();
    const observe = await call(routes.observeInvoice, {
      token: supplier,
      path: pathOf(invoice),
      body: { text: 'Yo no' },
    });
    expect(observe.status).toBe(403);
    const clear = await call(routes.clearInvoiceObservation, { token: supplier, path: pathOf(invoice) });
    expect(clear.status).toBe(403);
    expect((await table().partition(keys.invoice(invoice.supplierId, invoice.type, invoice.id).pk)).length).toBe(1);
  });

  it('lands every message when the supplier and the manager post at once, and the counts stay consistent', async () => {
    const invoice = await freshInvoice();
    const [supplier, manager] = [await supplierToken(), await managerToken()];
    const supplierBefore = await waiting(supplier);
    const managerBefore = await waiting(manager);
    const posts = Array.from({ length: 4 }, (_, i) =>
      call<PostedMessage>(routes.postInvoiceMessage, {
        token: i % 2 === 0 ? supplier : manager,
        path: pathOf(invoice),
        body: { text: `Mensaje ${i + 1}` },
      }),
    );
    const answers = await Promise.all(posts);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    const conversation = await call<InvoiceMessages>(routes.listInvoiceMessages, {
      token: manager,
      path: pathOf(invoice),
    });
    expect(conversation.body.items.map((m) => m.text).sort()).toEqual([
      'Mensaje 1',
      'Mensaje 2',
      'Mensaje 3',
      'Mensaje 4',
    ]);
    expect(conversation.body.conversation?.messageCount).toBe(4);
    const last = conversation.body.items.at(-1)!;
    expect(conversation.body.conversation?.lastMessageSide).toBe(last.side);
    // Exactly one side waits, the one that did not write last.
    const waitsOnSupplier = last.side === 'STAFF' ? 1 : 0;
    expect(await waiting(supplier)).toBe(supplierBefore + waitsOnSupplier);
    expect(await waiting(manager)).toBe(managerBefore + 1 - waitsOnSupplier);

    // Staff clear an observation: the wait on the supplier ends with it.
    await call(routes.observeInvoice, { token: manager, path: pathOf(invoice), body: { text: 'Falta la guía.' } });
    expect(await waiting(supplier)).toBe(supplierBefore + 1);
    const cleared = await call<InvoiceMessages>(routes.clearInvoiceObservation, {
      token: manager,
      path: pathOf(invoice),
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.observation).toBeNull();
    expect(await waiting(supplier)).toBe(supplierBefore);
    const again = await call(routes.clearInvoiceObservation, { token: manager, path: pathOf(invoice) });
    expect(again.status).toBe(409);
  });

  it("keeps a message's notice in the outbox when the queue refuses it, so the relay sends it later", async () => {
    const invoice = await freshInvoice();
    const { tableName } = stage();
    const db = stageDocumentClient();
    const down = {
      send: async () => {
        throw new Error('SQS is down');
      },
    };
    const useCases = conversationCalls({
      store: makeInvoiceStore(db, tableName),
      conversations: makeConversations(db, tableName),
      outgoing: makeOutgoing(
        db,
        tableName,
        {
          notifications: down,
          sunatValidation: down,
          miroRequests: down,
          exports: down,
          inboundMail: down,
          intakeBatches: down,
        },
        { error: () => undefined },
      ),
      verifyAttachment: () => Promise.reject(new Error('no attachments here')),
      downloadLink: () => Promise.reject(new Error('no links here')),
      clock: () => new Date(),
      randomHex: () => 'abcdef01',
    });
    const caller: Caller = {
      sub: 'manager-sub',
      username: 'gestor',
      email: 'gestor@grupoandino.pe',
      firstName: 'Carmen',
      lastName: 'Gutiérrez',
      level: 'MANAGER',
      taxIds: [invoice.client],
      groups: [],
      activeCompany: invoice.client,
      expiresAt: Date.now() / 1000 + 3600,
      signIn: 'CORPORATE',
      txId: `test-${invoice.id}`,
    };
    const text = `Observación sin cola ${invoice.id}`;
    const posted = await useCases.observe(caller, pathOf(invoice), { text, attachments: [] });
    expect(posted.observation?.reason).toBe(text);
    const pending = await until(
      async () => {
        const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
        const result = await db.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.outgoingQueue('notifications') },
          }),
        );
        const items = (result.Items ?? []).filter((item) => String(item.body).includes(text));
        return items.length > 0 && items;
      },
      { message: 'the outbox item', timeout: 20_000 },
    );
    expect(pending).toHaveLength(1);
    expect(pending[0]!.sentAt).toBeUndefined();
  });
});

import { checkInvoiceCode } from '@portal/shared';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { makeClientRepository } from '../repositories/clients.js';
import { makeIntakeStore } from '../repositories/intake-store.js';
import { sunatRecheckBaseSeconds, withSunatCheck } from '../repositories/sunat-checks.js';
import { makeSupplierProfileRepository } from '../repositories/supplier-profiles.js';
import { logger } from '../http/logger.js';
import { parseSunatDocument } from '../ubl/index.js';
import { makeIntake } from './intake.js';
import { outgoing } from './outgoing.factory.js';
import { uploads } from './uploads.factory.js';
import { clock } from '../adapters/clock.js';

/** Intake wired to S3, the UBL parser, DynamoDB and the queues, built once per cold start. */
export const intake = makeIntake({
  verifyUpload: (key, purpose, caller) => uploads.verifyUpload(key, purpose, caller),
  discardUpload: (key, reason, code) => uploads.discardRefused(key, reason, code),
  parseDocument: async (bytes) => {
    const parsed = parseSunatDocument(bytes);
    return {
      type: parsed.type,
      prefixId: parsed.prefixId,
      numericId: parsed.numericId,
      issueDate: parsed.issueDate,
      currency: parsed.currency,
      supplier: { taxId: parsed.supplier.taxId, name: parsed.supplier.name },
      customerTaxId: parsed.customer.taxId,
      taxAmount: parsed.taxAmount,
      amount: parsed.payableAmount,
      purchaseOrders: parsed.purchaseOrders,
      notes: null,
      paymentTerms: parsed.paymentTerms && {
        method: parsed.paymentTerms.method,
        pendingAmount: parsed.paymentTerms.pendingAmount,
        // Cuota001, Cuota002…: the number SUNAT gives each installment.
        installments: parsed.paymentTerms.installments.map((installment, index) => ({
          number: Number(/\d+/.exec(installment.id)?.[0] ?? index + 1) || index + 1,
          amount: installment.amount,
          dueDate: installment.dueDate,
        })),
      },
    };
  },
  checkInvoiceCode,
  clients: makeClientRepository(documentClient, tableName()),
  profiles: makeSupplierProfileRepository(documentClient, tableName()),
  // Each invoice is stored with its SUNAT check: the outbox sweeper asks SUNAT again if its message is lost.
  store: withSunatCheck(makeIntakeStore(documentClient, tableName(), logger), {
    clock,
    staleAfterSeconds: sunatRecheckBaseSeconds(),
  }),
  outgoing,
  clock,
});

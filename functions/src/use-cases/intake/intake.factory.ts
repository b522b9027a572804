import { checkInvoiceCode, installmentNumber } from '@portal/shared';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { makeClientRepository } from '../../repositories/clients.js';
import { makeIntakeStore } from '../../repositories/intake-store.js';
import { makeNoteLinks } from '../../repositories/note-links.js';
import { sunatRecheckBaseSeconds, withSunatCheck } from '../../repositories/sunat-checks.js';
import { makeSupplierProfileRepository } from '../../repositories/supplier-profiles.js';
import { logger } from '../../observability/logger.js';
import { parseSunatDocument } from '../../ubl/index.js';
import { parseCdr } from '../../ubl/cdr.js';
import type { IntakeDeps } from './intake-deps.js';
import { outgoing } from '../outgoing.factory.js';
import { storeReceived } from '../uploads/store-received.js';
import { discardUpload } from '../uploads/upload-checks.js';
import { uploadsDeps } from '../uploads/uploads.factory.js';
import { verifyUpload } from '../uploads/verify-upload.js';
import { clock } from '../../adapters/clock.js';

/**
 * The intake's real adapters (S3, the UBL parser, DynamoDB and the queues), built once per cold start; the intake
 * handlers and workers pass them to their use case (intake/create-invoice-from-xml.ts, register-files.ts, …).
 */
export const intakeDeps: IntakeDeps = {
  verifyUpload: (key, purpose, caller) => verifyUpload(uploadsDeps, key, purpose, caller),
  discardUpload: (key, reason, code) => discardUpload(uploadsDeps, key, reason, code),
  storeReceived: (caller, sourceKey, part, file) => storeReceived(uploadsDeps, caller, sourceKey, part, file),
  // Only SUNAT's CDRs are read until the portal keeps SUNAT's padrón of OSEs (docs/ap-cdr.md).
  parseCdr: (bytes) => parseCdr(bytes),
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
      breakdown: {
        operationType: parsed.operationType,
        saleValue: parsed.saleValue,
        taxes: parsed.taxes,
        incomeTaxWithholding: parsed.incomeTaxWithholding,
        allowances: parsed.allowances,
        charges: parsed.charges,
        prepaidAmount: parsed.prepaidAmount,
        prepayments: parsed.prepayments,
        freeOfCharge: parsed.freeOfCharge,
        freeOfChargeValue: parsed.freeOfChargeValue,
      },
      billingReference: parsed.billingReference,
      noteReason: parsed.billingReference
        ? { code: parsed.billingReference.reasonCode, description: parsed.billingReference.reasonDescription }
        : null,
      paymentTerms: parsed.paymentTerms && {
        method: parsed.paymentTerms.method,
        installments: parsed.paymentTerms.installments.map((installment, i) => ({
          number: installmentNumber(installment.id) ?? i + 1,
          amount: installment.amount,
          dueDate: installment.dueDate,
        })),
        declaredPendingAmount: parsed.paymentTerms.pendingAmount,
      },
      dueDates: parsed.dueDates,
      detraction: parsed.detraction ?? null,
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
  noteLinks: makeNoteLinks(documentClient, tableName()),
  outgoing,
  clock,
};

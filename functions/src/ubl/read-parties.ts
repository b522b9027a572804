import { BadRequestError, TEXT_LIMITS, isValidRuc } from '@portal/shared';
import { NS } from './namespaces.js';
import type { ParsedDocumentType, ParsedParty } from './parsed-document.js';
import { allOf, childOf, pathOf, textOf, type XmlElement } from './xml-tree.js';
import type { rootKind } from './read-fields.js';
import {
  FIELD,
  INVOICE_TYPE_CODES,
  MAX_PARTY_IDS,
  RUC_SCHEME,
  bounded,
  cac,
  cbc,
  invalid,
  missing,
  required,
} from './read-fields.js';

/* The parties of a SUNAT document (issuer and customer, in the UBL 2.1 and 2.0 layouts) and its type. */

interface PartyId {
  id: string;
  scheme: string | null;
}

/** Identity documents of a party, in the order the layouts are tried: 2.1, PartyTaxScheme, legal entity, 2.0. */
function partyIds(holder: XmlElement | undefined, field: string): PartyId[] {
  if (!holder) return [];
  const party = childOf(holder, NS.cac, 'Party');
  const ids: PartyId[] = [];
  const add = (element: XmlElement, scheme: string | undefined) => {
    const id = textOf(element);
    if (id !== undefined) ids.push({ id, scheme: scheme?.trim() || null });
    if (ids.length > MAX_PARTY_IDS)
      throw new BadRequestError('ERROR_XML_TOO_MANY_ITEMS', { field, limit: MAX_PARTY_IDS });
  };
  if (party) {
    for (const element of allOf(party, cac('PartyIdentification'), cbc('ID'))) {
      add(element, element.attributes.get('schemeID'));
    }
    for (const element of [
      ...allOf(party, cac('PartyTaxScheme'), cbc('CompanyID')),
      ...allOf(party, cac('PartyLegalEntity'), cbc('CompanyID')),
    ]) {
      add(element, element.attributes.get('schemeID'));
    }
  }
  const legacy = childOf(holder, NS.cbc, 'CustomerAssignedAccountID');
  if (legacy) add(legacy, textOf(childOf(holder, NS.cbc, 'AdditionalAccountID')));
  return ids;
}

function partyName(holder: XmlElement | undefined, field: string): string | undefined {
  const party = childOf(holder, NS.cac, 'Party');
  return bounded(
    textOf(pathOf(party, cac('PartyLegalEntity'), cbc('RegistrationName'))) ??
      textOf(pathOf(party, cac('PartyTaxScheme'), cbc('RegistrationName'))) ??
      textOf(pathOf(party, cac('PartyName'), cbc('Name'))),
    field,
    TEXT_LIMITS.partyName,
  );
}

export function readSupplier(root: XmlElement): ParsedParty {
  const holder = childOf(root, NS.cac, 'AccountingSupplierParty');
  const ids = partyIds(holder, FIELD.supplierTaxId);
  const ruc =
    ids.find((each) => each.scheme === RUC_SCHEME) ??
    ids.find((each) => each.scheme === null && /^\d{11}$/.test(each.id));
  if (!ruc) throw missing(FIELD.supplierTaxId);
  if (!isValidRuc(ruc.id)) throw invalid(FIELD.supplierTaxId);
  return {
    taxId: ruc.id,
    taxIdType: RUC_SCHEME,
    name: required(partyName(holder, FIELD.supplierName), FIELD.supplierName),
  };
}

export function readCustomer(root: XmlElement): ParsedParty {
  const holder = childOf(root, NS.cac, 'AccountingCustomerParty');
  const ids = partyIds(holder, FIELD.customerTaxId);
  // A boleta's customer may be identified by DNI, or not at all ("-" with scheme 0 or "-").
  const chosen = ids.find((each) => each.scheme === RUC_SCHEME) ?? ids[0];
  if (!chosen) throw missing(FIELD.customerTaxId);
  if (chosen.scheme === RUC_SCHEME && !isValidRuc(chosen.id)) throw invalid(FIELD.customerTaxId);
  return {
    taxId: bounded(chosen.id, FIELD.customerTaxId, TEXT_LIMITS.partyTaxId)!,
    taxIdType: bounded(chosen.scheme ?? undefined, FIELD.customerTaxIdType, TEXT_LIMITS.code) ?? null,
    name: required(partyName(holder, FIELD.customerName), FIELD.customerName),
  };
}

export function readType(
  root: XmlElement,
  kind: ReturnType<typeof rootKind>,
  prefixId: string,
  isRecibo: () => boolean,
): ParsedDocumentType {
  if (kind === 'CreditNote') return 'NOTA_DE_CREDITO';
  if (kind === 'DebitNote') return 'NOTA_DE_DEBITO';
  const code = bounded(textOf(childOf(root, NS.cbc, 'InvoiceTypeCode')), FIELD.invoiceTypeCode, TEXT_LIMITS.code);
  if (code !== undefined) {
    const type = INVOICE_TYPE_CODES[code];
    if (!type) throw new BadRequestError('ERROR_XML_UNSUPPORTED_DOCUMENT');
    // SEE-SOL may write a factura's code on a recibo por honorarios: the document's own content tells.
    return type === 'FACTURA' && isRecibo() ? 'RECIBO_POR_HONORARIOS' : type;
  }
  // Some UBL 2.0 invoices carry no type code: the series tells (EB01 is SEE-SOL's boleta series).
  const series = prefixId.toUpperCase();
  if (series.startsWith('F')) return 'FACTURA';
  if (series.startsWith('B') || series === 'EB01') return 'BOLETA';
  if (series.startsWith('E')) return isRecibo() ? 'RECIBO_POR_HONORARIOS' : 'FACTURA';
  throw missing(FIELD.invoiceTypeCode);
}

/**
 * What S/4HANA's metadata declares of the supplier-invoice API, and the withholding tax data of a posting as
 * S/4HANA checks it (docs/ap-payment.md).
 */

/**
 * The properties of API_SUPPLIERINVOICE_PROCESS_SRV's A_SupplierInvoice (header, with its navigation properties) and
 * A_SuplrInvcItemPurOrdRef (purchase-order lines), as S/4HANA's metadata declares them: a deep insert naming any
 * other property is refused as S/4HANA refuses it.
 */
export const HEADER_PROPERTIES = new Set([
  'SupplierInvoice',
  'FiscalYear',
  'CompanyCode',
  'DocumentDate',
  'PostingDate',
  'CreationDate',
  'SupplierInvoiceIDByInvcgParty',
  'InvoicingParty',
  'DocumentCurrency',
  'InvoiceGrossAmount',
  'UnplannedDeliveryCost',
  'DocumentHeaderText',
  'ManualCashDiscount',
  'PaymentTerms',
  'DueCalculationBaseDate',
  'CashDiscount1Percent',
  'CashDiscount1Days',
  'CashDiscount2Percent',
  'CashDiscount2Days',
  'NetPaymentDays',
  'PaymentBlockingReason',
  'AccountingDocumentType',
  'BPBankAccountInternalID',
  'SupplierInvoiceStatus',
  'IndirectQuotedExchangeRate',
  'DirectQuotedExchangeRate',
  'StateCentralBankPaymentReason',
  'SupplyingCountry',
  'PaymentMethod',
  'PaymentMethodSupplement',
  'PaymentReference',
  'InvoiceReference',
  'InvoiceReferenceFiscalYear',
  'FixedCashDiscount',
  'UnplannedDeliveryCostTaxCode',
  'UnplndDelivCostTaxJurisdiction',
  'UnplndDeliveryCostTaxCountry',
  'AssignmentReference',
  'SupplierPostingLineItemText',
  'TaxIsCalculatedAutomatically',
  'BusinessPlace',
  'BusinessSectionCode',
  'BusinessArea',
  'SuplrInvcIsCapitalGoodsRelated',
  'SupplierInvoiceIsCreditMemo',
  'PaytSlipWthRefSubscriber',
  'PaytSlipWthRefCheckDigit',
  'PaytSlipWthRefReference',
  'TaxDeterminationDate',
  'TaxReportingDate',
  'TaxFulfillmentDate',
  'InvoiceReceiptDate',
  'DeliveryOfGoodsReportingCntry',
  'SupplierVATRegistration',
  'IsEUTriangularDeal',
  'SuplrInvcDebitCrdtCodeDelivery',
  'SuplrInvcDebitCrdtCodeReturns',
  'RetentionDueDate',
  'PaymentReason',
  'HouseBank',
  'HouseBankAccount',
  'JrnlEntryCntrySpecificRef1',
  'JrnlEntryCntrySpecificDate1',
  'JrnlEntryCntrySpecificRef2',
  'JrnlEntryCntrySpecificDate2',
  'JrnlEntryCntrySpecificRef3',
  'JrnlEntryCntrySpecificDate3',
  'JrnlEntryCntrySpecificRef4',
  'JrnlEntryCntrySpecificDate4',
  'JrnlEntryCntrySpecificRef5',
  'JrnlEntryCntrySpecificDate5',
  'JrnlEntryCntrySpecificBP1',
  'JrnlEntryCntrySpecificBP2',
  'to_SelectedDeliveryNotes',
  'to_SelectedPurchaseOrders',
  'to_SelectedServiceEntrySheets',
  'to_SuplrInvcItemAsset',
  'to_SuplrInvcItemMaterial',
  'to_SuplrInvcItemPurOrdRef',
  'to_SuplrInvoiceAdditionalData',
  'to_SupplierInvoiceItemGLAcct',
  'to_SupplierInvoiceTax',
  'to_SupplierInvoiceWhldgTax',
  // The header's withholding taxes (A_SuplrInvcHeaderWhldgTax): the detracción and the retención del IGV.
  'to_SuplrInvcHeaderWhldgTax',
]);
export const PURCHASE_ORDER_LINE_PROPERTIES = new Set([
  'SupplierInvoice',
  'FiscalYear',
  'SupplierInvoiceItem',
  'PurchaseOrder',
  'PurchaseOrderItem',
  'Plant',
  'ReferenceDocument',
  'ReferenceDocumentFiscalYear',
  'ReferenceDocumentItem',
  'IsSubsequentDebitCredit',
  'TaxCode',
  'TaxJurisdiction',
  'DocumentCurrency',
  'SupplierInvoiceItemAmount',
  'PurchaseOrderQuantityUnit',
  'PurchaseOrderQtyUnitSAPCode',
  'PurchaseOrderQtyUnitISOCode',
  'QuantityInPurchaseOrderUnit',
  'PurchaseOrderPriceUnit',
  'PurchaseOrderPriceUnitSAPCode',
  'PurchaseOrderPriceUnitISOCode',
  'QtyInPurchaseOrderPriceUnit',
  'SuplrInvcDeliveryCostCndnType',
  'SuplrInvcDeliveryCostCndnStep',
  'SuplrInvcDeliveryCostCndnCount',
  'SupplierInvoiceItemText',
  'FreightSupplier',
  'IsNotCashDiscountLiable',
  'PurchasingDocumentItemCategory',
  'ProductType',
  'RetentionAmountInDocCurrency',
  'RetentionPercentage',
  'RetentionDueDate',
  'SuplrInvcItmIsNotRlvtForRtntn',
  'ServiceEntrySheet',
  'ServiceEntrySheetItem',
  'TaxCountry',
  'IsFinallyInvoiced',
  'TaxDeterminationDate',
  'to_SupplierInvoiceItmAcctAssgmt',
]);

/** The purchase-order lines of a deep insert (A_SuplrInvcItemPurOrdRef). */
export const linesOf = (payload: Record<string, unknown>) =>
  ((payload.to_SuplrInvcItemPurOrdRef as { results?: unknown[] } | undefined)?.results ?? []) as Record<
    string,
    unknown
  >[];

/** A property the entity does not have, as S/4HANA names it in its refusal; null when all are known. */
export function unknownProperty(payload: Record<string, unknown>): string | null {
  const header = Object.keys(payload).find((name) => !HEADER_PROPERTIES.has(name));
  if (header) return `La propiedad '${header}' no es válida para A_SupplierInvoice.`;
  for (const line of linesOf(payload)) {
    const item = Object.keys(line).find((name) => !PURCHASE_ORDER_LINE_PROPERTIES.has(name));
    if (item) return `La propiedad '${item}' no es válida para A_SuplrInvcItemPurOrdRef.`;
  }
  return null;
}

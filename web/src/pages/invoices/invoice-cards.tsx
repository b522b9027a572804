import Box from '@cloudscape-design/components/box';
import type { CardsProps } from '@cloudscape-design/components/cards';
import type { InvoiceSummary, Level } from '@portal/shared';
import {
  AmountCell,
  ClientCell,
  NumberCell,
  PaymentDateCell,
  StatusCell,
  SupplierCell,
  TypeCell,
  type ColumnHandlers,
} from './columns';
import { invoiceNumber } from './invoice-number';
import { FileActions } from './file-actions';
import { invoicesMessages } from './messages';
import './invoice-cards.css';

const text = invoicesMessages;

/** One card a row: a phone's column of cards, never side by side. */
export const INVOICE_CARDS_PER_ROW: readonly CardsProps.CardsLayout[] = [{ cards: 1 }];

/**
 * An invoice as a phone shows it (up to Cloudscape's 688 px, where the table's columns no longer fit): a card with
 * what a person looks for first, drawn by the table's own cells. The number heads it and opens the invoice, with
 * the type beside it and the file menu at the end of the line; then the amount beside the status, which the first
 * screen shows for three cards; the other party (the client for a supplier, the supplier for staff, as the table's
 * default columns); and when it is paid, as the 'Fecha de pago' column says it.
 */
export function invoiceCardDefinition(
  handlers: ColumnHandlers,
  level: Level | undefined,
): CardsProps.CardDefinition<InvoiceSummary> {
  return {
    header: (invoice) => (
      <div className="invoice-card-header">
        <span>
          <NumberCell invoice={invoice} handlers={handlers} />{' '}
          {/* In the body's size beside the number, the header's bold being the number's. */}
          <Box variant="span" fontSize="body-m" fontWeight="normal" color="text-body-secondary">
            <TypeCell invoice={invoice} />
          </Box>
        </span>
        <FileActions invoice={invoice} label={invoiceNumber(invoice)} onAction={handlers.onFileAction} />
      </div>
    ),
    sections: [
      {
        id: 'summary',
        content: (invoice) => (
          <div className="invoice-card-body">
            <div>
              <AmountCell invoice={invoice} />
            </div>
            <div>
              <StatusCell invoice={invoice} />
            </div>
            <div className="invoice-card-wide">
              {level === 'SUPPLIER' ? <ClientCell invoice={invoice} /> : <SupplierCell invoice={invoice} />}
            </div>
            <div className="invoice-card-wide">
              <Box variant="span" color="text-body-secondary">
                {text.columns.paymentDate}:
              </Box>{' '}
              <PaymentDateCell invoice={invoice} />
            </div>
          </div>
        ),
      },
    ],
  };
}

import { useCallback, useMemo } from 'react';
import Box from '@cloudscape-design/components/box';
import ButtonDropdown, { type ButtonDropdownProps } from '@cloudscape-design/components/button-dropdown';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { routes, toInvoiceParams, type InvoiceRef, type InvoiceSummary } from '@portal/shared';
import { apiCall, errorMessage } from '../../api/client';
import { useApi } from '../../api/use-api';
import { useFeedback } from '../../feedback/feedback';
import { InfoModal } from '../../components/info-modal';
import { invoicesMessages } from './messages';

const text = invoicesMessages.files;

type FileAction = 'xml' | 'pdf' | 'attachments';
/**
 * The path of an invoice's routes (GET …/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}…), for a row of
 * the list or the detail alike.
 */
export function invoicePath(invoice: InvoiceRef) {
  return toInvoiceParams(invoice);
}

/**
 * Downloading the XML and viewing the PDF: each asks GET …/files for a five-minute presigned link.
 * The PDF's tab is opened at the click, before the link arrives, so that the browser does not take it
 * for an unrequested pop-up; the page it opens cannot reach back to the portal (opener cleared).
 */
export function useFileActions() {
  const feedback = useFeedback();

  const download = useCallback(
    async (invoice: InvoiceRef, file: 'xml' | 'cdr') => {
      try {
        const link = await apiCall(routes.getInvoiceFile, { path: invoicePath(invoice), query: { file } });
        // The link answers with Content-Disposition: attachment, so following it downloads the file.
        const anchor = document.createElement('a');
        anchor.href = link.url;
        anchor.download = link.fileName;
        anchor.rel = 'noopener';
        document.body.append(anchor);
        anchor.click();
        anchor.remove();
      } catch (error) {
        feedback.error(error);
      }
    },
    [feedback],
  );

  const viewPdf = useCallback(
    async (invoice: InvoiceRef) => {
      const tab = window.open('', '_blank');
      if (tab) tab.opener = null;
      try {
        const link = await apiCall(routes.getInvoiceFile, { path: invoicePath(invoice), query: { file: 'pdf' } });
        if (tab) tab.location.replace(link.url);
        else window.open(link.url, '_blank', 'noopener');
      } catch (error) {
        tab?.close();
        feedback.error(error);
      }
    },
    [feedback],
  );

  return useMemo(
    () => ({
      downloadXml: (invoice: InvoiceRef) => download(invoice, 'xml'),
      downloadCdr: (invoice: InvoiceRef) => download(invoice, 'cdr'),
      viewPdf,
    }),
    [download, viewPdf],
  );
}

/** The row's file actions (spec §2: download XML, view PDF, view attached PDFs), keyboard operable. */
export function FileActions({
  invoice,
  label,
  onAction,
}: {
  invoice: InvoiceSummary;
  /** The invoice number, to name the menu for assistive technology. */
  label: string;
  onAction: (action: FileAction, invoice: InvoiceSummary) => void;
}) {
  const items = useMemo<ButtonDropdownProps.Item[]>(
    () => [
      {
        id: 'xml',
        text: text.downloadXml,
        iconName: 'download',
        disabled: !invoice.xmlUrl,
        disabledReason: text.noXml,
      },
      {
        id: 'pdf',
        text: text.viewPdf,
        iconName: 'external',
        disabled: !invoice.pdfUrl,
        disabledReason: text.noPdf,
      },
      {
        id: 'attachments',
        text: text.viewAttachments,
        iconName: 'file',
        disabled: invoice.attachments.length === 0,
        disabledReason: text.noAttachments,
      },
    ],
    [invoice],
  );
  return (
    <ButtonDropdown
      variant="inline-icon"
      ariaLabel={text.actions(label)}
      items={items}
      expandToViewport
      onItemClick={({ detail }) => onAction(detail.id as FileAction, invoice)}
    />
  );
}

function AttachmentLink({ invoice, index }: { invoice: InvoiceSummary; index: number }) {
  const { data, error } = useApi(
    routes.getInvoiceFile,
    { path: invoicePath(invoice), query: { file: 'attachment', index } },
    { revalidateOnFocus: false },
  );
  if (error) return <StatusIndicator type="error">{errorMessage(error)}</StatusIndicator>;
  if (!data) return <StatusIndicator type="loading">{text.attachmentLoading(index + 1)}</StatusIndicator>;
  return (
    <Link href={data.url} external externalIconAriaLabel={text.attachmentOpens} target="_blank" rel="noopener">
      {data.fileName}
    </Link>
  );
}

/** 'Ver adjuntos': the invoice's attached files, each a link to open it. */
export function AttachmentsModal({
  invoice,
  label,
  onDismiss,
}: {
  invoice: InvoiceSummary;
  label: string;
  onDismiss: () => void;
}) {
  return (
    <InfoModal header={text.attachmentsTitle(label)} onDismiss={onDismiss}>
      <SpaceBetween size="s">
        <Box color="text-body-secondary">{text.attachmentsDescription}</Box>
        <ul data-testid="invoice-attachments" style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
          {invoice.attachments.map((key, index) => (
            <li key={key}>
              <AttachmentLink invoice={invoice} index={index} />
            </li>
          ))}
        </ul>
      </SpaceBetween>
    </InfoModal>
  );
}

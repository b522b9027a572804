import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { routes, type InvoiceDetail } from '@portal/shared';
import { apiCall } from '../../../api/client';
import { useFeedback } from '../../../feedback/feedback';
import { invoicePath, useFileActions } from '../file-actions';
import { attachmentKind } from './attachments-field';
import { detailMessages } from './messages';
import { ActionLink } from '../../../components/action-link';

const text = detailMessages.files;

/**
 * The invoice's files (spec §2: attached files). Stored keys are not URLs: each link asks the invoice
 * file route for a five-minute presigned link when followed. The XML downloads and the PDF opens as
 * from the table's row actions; an attachment opens in a new window, opened at the click so that the
 * browser does not take the later navigation for a pop-up.
 */
export function InvoiceFiles({ invoice }: { invoice: InvoiceDetail }) {
  const feedback = useFeedback();
  const { downloadXml, downloadCdr, viewPdf } = useFileActions();

  const openAttachment = async (index: number) => {
    const target = window.open('', '_blank');
    if (target) target.opener = null;
    try {
      const link = await apiCall(routes.getInvoiceFile, {
        path: invoicePath(invoice),
        query: { file: 'attachment', index },
      });
      if (target) target.location.replace(link.url);
      else window.open(link.url, '_blank', 'noopener');
    } catch (error) {
      target?.close();
      feedback.error(error);
    }
  };

  const entries = [
    ...(invoice.xmlUrl ? [{ id: 'xml', label: text.xml, aria: text.downloadLabel(text.xml), open: downloadXml }] : []),
    ...(invoice.pdfUrl ? [{ id: 'pdf', label: text.pdf, aria: text.openLabel(text.pdf), open: viewPdf }] : []),
    ...(invoice.supplierCdr?.fileKey
      ? [{ id: 'cdr', label: text.cdr, aria: text.downloadLabel(text.cdr), open: downloadCdr }]
      : []),
    ...invoice.attachments.map((key, index) => {
      const label = detailMessages.form.attachmentToken(index, attachmentKind(key));
      return { id: `attachment-${index}`, label, aria: text.openLabel(label), open: () => openAttachment(index) };
    }),
  ];

  if (entries.length === 0) return <Box color="text-body-secondary">{text.none}</Box>;
  return (
    <SpaceBetween size="xxs">
      {entries.map((entry) => (
        <ActionLink key={entry.id} ariaLabel={entry.aria} onFollow={() => void entry.open(invoice)}>
          {entry.label}
        </ActionLink>
      ))}
    </SpaceBetween>
  );
}

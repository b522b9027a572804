import { useState } from 'react';
import FileInput from '@cloudscape-design/components/file-input';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import { INVOICE_TYPE_LABELS, routes, type Invoice } from '@portal/shared';
import { apiCall } from '../../api/client';
import { useFeedback, type Feedback } from '../../feedback/feedback';
import { invoicesMessages } from './messages';
import { FILE_RULES, isFileRejection, uploadFile } from './upload-file';
import { invoiceNumber } from './columns';

const text = invoicesMessages.upload;

/** Spec §9 "Invoice received": the global alert dialog, with the invoice it is about as its details. */
export function announceReceived(feedback: Feedback, invoice: Invoice): void {
  feedback.alert({
    header: text.receivedHeader,
    message: text.receivedMessage,
    details: text.receivedDetails(INVOICE_TYPE_LABELS[invoice.type], invoiceNumber(invoice), invoice.clientName),
  });
}

/** An API failure by spec §8's display rule; a file refused before sending, in its own words. */
export function reportFailure(feedback: Feedback, error: unknown): void {
  feedback.error(isFileRejection(error) ? error.message : error);
}

export interface XmlUploadState {
  readonly fileName: string;
  readonly percent: number;
  readonly phase: 'sending' | 'registering';
}

/**
 * 'Cargar XML' (spec §2, design flow 1): the file is checked here (type, size), a ticket is asked
 * (POST /uploads), the file goes to the bucket with its presigned POST while a progress bar moves, and
 * POST /invoices registers it. Success opens the 'Buen trabajo' dialog and hands the stored invoice over
 * (the screen refreshes the list and opens its detail).
 */
export function useXmlUpload(onReceived: (invoice: Invoice) => void) {
  const feedback = useFeedback();
  const [state, setState] = useState<XmlUploadState | null>(null);

  const upload = async (file: File) => {
    setState({ fileName: file.name, percent: 0, phase: 'sending' });
    try {
      const key = await uploadFile(file, 'INVOICE_XML', (percent) =>
        setState({ fileName: file.name, percent, phase: 'sending' }),
      );
      setState({ fileName: file.name, percent: 100, phase: 'registering' });
      const invoice = await apiCall(routes.createInvoiceFromXml, { body: { url: key } });
      announceReceived(feedback, invoice);
      onReceived(invoice);
    } catch (error) {
      reportFailure(feedback, error);
    } finally {
      setState(null);
    }
  };
  return { state, upload };
}

/** The header button: a file input that accepts one XML. Busy while an upload runs. */
export function XmlUploadButton({ busy, onFile }: { busy: boolean; onFile: (file: File) => void }) {
  return (
    <FileInput
      value={[]}
      accept={[FILE_RULES.INVOICE_XML.extension, ...FILE_RULES.INVOICE_XML.contentTypes].join(',')}
      ariaLabel={text.buttonAria}
      onChange={({ detail }) => {
        const file = detail.value[0];
        if (file && !busy) onFile(file);
      }}
    >
      {text.button}
    </FileInput>
  );
}

/** The upload's progress, under the screen's header. */
export function XmlUploadProgress({ state }: { state: XmlUploadState }) {
  return (
    <ProgressBar
      label={text.progressLabel(state.fileName)}
      value={state.percent}
      description={state.phase === 'sending' ? text.sending : text.registering}
      status="in-progress"
    />
  );
}

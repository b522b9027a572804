import { useState } from 'react';
import FileInput from '@cloudscape-design/components/file-input';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import { INVOICE_TYPE_LABELS, routes, type Invoice } from '@portal/shared';
import { apiCall } from '../../api/client';
import { useFeedback, type Feedback } from '../../feedback/feedback';
import { invoicesMessages } from './messages';
import { FILE_RULES, isFileRejection, uploadFile } from './upload-file';
import { invoiceNumber } from './invoice-number';

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

  const upload = async (files: readonly File[]) => {
    const chosen = xmlAndCdr(files);
    if (typeof chosen === 'string') {
      feedback.error(chosen);
      return;
    }
    const { xml, cdr } = chosen;
    setState({ fileName: xml.name, percent: 0, phase: 'sending' });
    try {
      const key = await uploadFile(xml, 'INVOICE_XML', (percent) =>
        setState({ fileName: xml.name, percent, phase: 'sending' }),
      );
      const cdrKey = cdr ? await uploadFile(cdr, 'INVOICE_CDR') : undefined;
      setState({ fileName: xml.name, percent: 100, phase: 'registering' });
      const invoice = await apiCall(routes.createInvoiceFromXml, {
        body: { url: key, ...(cdrKey ? { cdrUrl: cdrKey } : {}) },
      });
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

/** SUNAT names a CDR after its document with R- in front (R-20100070970-01-F001-123.xml). */
const isCdrName = (name: string) => /^R-.*\.xml$/i.test(name);

/** The invoice's XML and, when chosen with it, its CDR; or why the choice is not one document. */
export function xmlAndCdr(files: readonly File[]): { xml: File; cdr: File | null } | string {
  const cdrs = files.filter((file) => isCdrName(file.name));
  const others = files.filter((file) => !isCdrName(file.name));
  if (others.length === 0 && cdrs.length > 0) return text.onlyCdr;
  if (others.length !== 1 || cdrs.length > 1) return text.oneDocument;
  return { xml: others[0]!, cdr: cdrs[0] ?? null };
}

/**
 * The header button: a file input that takes one document's XML and, optionally, its CDR (R-….xml) chosen with
 * it. Busy while an upload runs.
 */
export function XmlUploadButton({ busy, onFiles }: { busy: boolean; onFiles: (files: readonly File[]) => void }) {
  return (
    <FileInput
      value={[]}
      multiple
      accept={[FILE_RULES.INVOICE_XML.extension, ...FILE_RULES.INVOICE_XML.contentTypes].join(',')}
      ariaLabel={text.buttonAria}
      onChange={({ detail }) => {
        if (detail.value.length > 0 && !busy) onFiles(detail.value);
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

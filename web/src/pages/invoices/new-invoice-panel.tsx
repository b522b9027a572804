import { useState, type FormEvent } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { isNoteType, routes, type Invoice } from '@portal/shared';
import { apiCall } from '../../api/client';
import { useFeedback } from '../../feedback/feedback';
import { invoicesMessages } from './messages';
import { emptyForm, issueDateOf, validateForm, type FieldErrors, type NewInvoiceForm } from './new-invoice-form';
import { EMPTY_PAYMENT, validatePayment, type PaymentErrors, type PaymentForm } from './new-invoice-payment';
import { NewInvoicePaymentFields } from './new-invoice-payment-fields';
import { uploadFile } from './upload-file';
import { announceReceived, reportFailure } from './xml-upload';
import {
  AmountFields,
  ClientField,
  DocumentFields,
  NoteFields,
  SupplierFields,
  type SetField,
} from './new-invoice-fields';

const text = invoicesMessages.create;

export interface NewInvoicePanelProps {
  /** The supplier's RUC, fixed for a supplier (it may only submit its own); absent for an admin. */
  readonly supplierTaxId?: string;
  /**
   * The supplier's business name as the supplier directory knows its RUC (GET /users/me): fixed when known, as
   * the API takes that one whatever the form says.
   */
  readonly supplierName?: string;
  /** The client the list is filtered by, offered first. */
  readonly defaultClient?: string;
  /** The invoice as stored: the screen opens its detail in this sidebar's place. */
  readonly onCreated: (invoice: Invoice) => void;
  readonly onClose: () => void;
}

type Phase = 'idle' | 'uploading' | 'registering';

/**
 * 'Nuevo comprobante' (spec §2 "Add invoice" sidebar, §3 create-without-XML form): every field of the
 * form, checked before sending with the route's body schema; the PDF (required, spec §5) goes through
 * POST /uploads first, then POST /invoices/without-xml registers the invoice.
 */
export function NewInvoicePanel(props: NewInvoicePanelProps) {
  const feedback = useFeedback();
  const [form, setForm] = useState<NewInvoiceForm>(() =>
    emptyForm({
      supplierTaxId: props.supplierTaxId ?? '',
      supplierName: props.supplierName ?? '',
      clientTaxId: props.defaultClient ?? '',
    }),
  );
  const [checked, setChecked] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [payment, setPayment] = useState<PaymentForm>(EMPTY_PAYMENT);
  const paymentOf = () => {
    const issued = issueDateOf(form.issueDate);
    return validatePayment(payment, {
      issueDate: 'date' in issued ? issued.date : null,
      currency: form.currency,
      type: form.type,
    });
  };
  // Once the user tried to send, errors follow every change.
  const errors: FieldErrors = checked ? validateForm(form).errors : {};
  const paymentErrors: PaymentErrors = checked ? paymentOf().errors : {};
  const busy = phase !== 'idle';

  const set: SetField = (field) => (value) => setForm((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setChecked(true);
    const { body } = validateForm(form);
    const { body: paymentBody } = paymentOf();
    const pdf = form.pdf[0];
    if (!body || !paymentBody || !pdf) return;
    try {
      setPhase('uploading');
      const pdfUrl = await uploadFile(pdf, 'INVOICE_PDF');
      setPhase('registering');
      const invoice = await apiCall(routes.createInvoiceWithoutXml, { body: { ...body, ...paymentBody, pdfUrl } });
      announceReceived(feedback, invoice);
      props.onCreated(invoice);
    } catch (error) {
      reportFailure(feedback, error);
      setPhase('idle');
    }
  };

  const hasErrors = Object.keys(errors).length > 0 || Object.keys(paymentErrors).length > 0;
  return (
    <Box padding={{ horizontal: 'l', vertical: 'm' }} data-testid="new-invoice-panel">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Form
          header={
            <Header variant="h2" description={text.description}>
              {text.title}
            </Header>
          }
          errorText={hasErrors ? text.errors.summary : undefined}
          errorIconAriaLabel={text.errorIcon}
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button formAction="none" variant="link" onClick={props.onClose} disabled={busy}>
                {text.cancel}
              </Button>
              <Button
                variant="primary"
                loading={busy}
                loadingText={phase === 'uploading' ? text.uploading : text.registering}
              >
                {text.submit}
              </Button>
            </SpaceBetween>
          }
        >
          <SpaceBetween size="m">
            <DocumentFields
              form={form}
              errors={errors}
              set={set}
              onType={(type) =>
                // A reason of one catálogo is no reason of the other.
                setForm((current) => ({ ...current, type, noteReasonCode: '' }))
              }
            />
            {isNoteType(form.type) && <NoteFields form={form} errors={errors} set={set} />}
            <ClientField form={form} errors={errors} set={set} />
            <AmountFields form={form} errors={errors} set={set} />
            <NewInvoicePaymentFields
              form={payment}
              currency={form.currency}
              errors={paymentErrors}
              onChange={(change) => setPayment((current) => ({ ...current, ...change }))}
            />
            <SupplierFields
              form={form}
              errors={errors}
              set={set}
              fixedTaxId={Boolean(props.supplierTaxId)}
              fixedName={Boolean(props.supplierName)}
            />
          </SpaceBetween>
        </Form>
      </form>
    </Box>
  );
}

import { useState, type FormEvent } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FileUpload from '@cloudscape-design/components/file-upload';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import {
  CURRENCIES,
  INVOICE_TYPES,
  INVOICE_TYPE_LABELS,
  NOTE_ORIGINAL_TYPES,
  isNoteType,
  issueDateProblem,
  noteReasonsOf,
  routes,
  type Currency,
  type Invoice,
  type InvoiceType,
  type NoteOriginalType,
} from '@portal/shared';
import { apiCall } from '../../api/client';
import { DateInput } from '../../components/date-input';
import { useFeedback } from '../../feedback/feedback';
import { useClients } from '../../hooks/use-clients';
import { invoicesMessages } from './messages';
import { emptyForm, issueDateOf, validateForm, type FieldErrors, type NewInvoiceForm } from './new-invoice-form';
import { EMPTY_PAYMENT, validatePayment, type PaymentErrors, type PaymentForm } from './new-invoice-payment';
import { NewInvoicePaymentFields } from './new-invoice-payment-fields';
import { FILE_RULES, uploadFile } from './upload-file';
import { announceReceived, reportFailure } from './xml-upload';

const text = invoicesMessages.create;

/** A day in words ('jueves, 5 de noviembre de 2026'): how the form reads back a typed date. */
const DAY_IN_WORDS = new Intl.DateTimeFormat('es-PE', { dateStyle: 'full', timeZone: 'UTC' });

const TYPE_OPTIONS: SelectProps.Option[] = INVOICE_TYPES.map((type) => ({
  value: type,
  label: INVOICE_TYPE_LABELS[type],
}));
const ORIGINAL_TYPE_OPTIONS: SelectProps.Option[] = NOTE_ORIGINAL_TYPES.map((type) => ({
  value: type,
  label: INVOICE_TYPE_LABELS[type],
}));
const CURRENCY_LABELS: Record<Currency, string> = { PEN: 'Soles (PEN)', USD: 'Dólares (USD)' };
const CURRENCY_OPTIONS: SelectProps.Option[] = CURRENCIES.map((currency) => ({
  value: currency,
  label: CURRENCY_LABELS[currency],
}));

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
  const { clients, isLoading: clientsLoading, error: clientsError } = useClients();
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
  // The date says what is wrong with it as soon as the user leaves the field, not only on sending.
  const [dateLeft, setDateLeft] = useState(false);
  const typedDate = issueDateOf(form.issueDate);
  const issueDateError =
    errors.issueDate ?? (dateLeft && form.issueDate.trim() && 'error' in typedDate ? typedDate.error : undefined);
  const issueDateRead = 'date' in typedDate ? DAY_IN_WORDS.format(new Date(`${typedDate.date}T00:00:00Z`)) : null;

  const set =
    <K extends keyof NewInvoiceForm>(field: K) =>
    (value: NewInvoiceForm[K]) =>
      setForm((current) => ({ ...current, [field]: value }));

  const clientOptions: SelectProps.Option[] = clients.map((client) => ({
    value: client.taxId,
    label: client.name,
    description: client.taxId,
  }));

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
  // A note names its original and a reason of SUNAT's catálogo 09 (credit) or 10 (debit).
  const reasonOptions: SelectProps.Option[] = isNoteType(form.type)
    ? noteReasonsOf(form.type).map((entry) => ({
        value: entry.code,
        label: text.note.reasonOption(entry.code, entry.label),
      }))
    : [];

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
            <ColumnLayout columns={2}>
              <FormField label={text.prefixId} errorText={errors.prefixId}>
                <Input
                  value={form.prefixId}
                  placeholder={text.prefixIdPlaceholder}
                  onChange={({ detail }) => set('prefixId')(detail.value.toUpperCase().slice(0, 4))}
                  invalid={Boolean(errors.prefixId)}
                  ariaRequired
                  autoComplete={false}
                />
              </FormField>
              <FormField label={text.numericId} errorText={errors.numericId}>
                <Input
                  value={form.numericId}
                  placeholder={text.numericIdPlaceholder}
                  inputMode="numeric"
                  onChange={({ detail }) => set('numericId')(detail.value.replace(/\D/g, '').slice(0, 8))}
                  invalid={Boolean(errors.numericId)}
                  ariaRequired
                  autoComplete={false}
                />
              </FormField>
            </ColumnLayout>
            <FormField label={text.type} errorText={errors.type}>
              <Select
                options={TYPE_OPTIONS}
                selectedOption={TYPE_OPTIONS.find((option) => option.value === form.type) ?? null}
                onChange={({ detail }) =>
                  // A reason of one catálogo is no reason of the other.
                  setForm((current) => ({
                    ...current,
                    type: detail.selectedOption.value as InvoiceType,
                    noteReasonCode: '',
                  }))
                }
                invalid={Boolean(errors.type)}
                ariaRequired
              />
            </FormField>
            {isNoteType(form.type) && (
              <div data-testid="new-invoice-note">
                <SpaceBetween size="m">
                  <FormField
                    label={text.note.header}
                    description={text.note.description}
                    errorText={errors.billingReference}
                  >
                    <ColumnLayout columns={3}>
                      <FormField label={text.note.originalType}>
                        <Select
                          options={ORIGINAL_TYPE_OPTIONS}
                          selectedOption={
                            ORIGINAL_TYPE_OPTIONS.find((option) => option.value === form.originalType) ?? null
                          }
                          onChange={({ detail }) =>
                            set('originalType')(detail.selectedOption.value as NoteOriginalType)
                          }
                        />
                      </FormField>
                      <FormField label={text.note.originalPrefixId}>
                        <Input
                          value={form.originalPrefixId}
                          placeholder={text.prefixIdPlaceholder}
                          onChange={({ detail }) => set('originalPrefixId')(detail.value.toUpperCase().slice(0, 4))}
                          invalid={Boolean(errors.billingReference)}
                          ariaRequired
                          autoComplete={false}
                        />
                      </FormField>
                      <FormField label={text.note.originalNumericId}>
                        <Input
                          value={form.originalNumericId}
                          placeholder={text.numericIdPlaceholder}
                          inputMode="numeric"
                          onChange={({ detail }) =>
                            set('originalNumericId')(detail.value.replace(/\D/g, '').slice(0, 8))
                          }
                          invalid={Boolean(errors.billingReference)}
                          ariaRequired
                          autoComplete={false}
                        />
                      </FormField>
                    </ColumnLayout>
                  </FormField>
                  <FormField
                    label={text.note.reason}
                    description={form.type === 'NOTA_DE_CREDITO' ? text.note.reasonCredit : text.note.reasonDebit}
                    errorText={errors.noteReasonCode}
                  >
                    <Select
                      options={reasonOptions}
                      placeholder={text.note.reasonPlaceholder}
                      selectedOption={reasonOptions.find((option) => option.value === form.noteReasonCode) ?? null}
                      onChange={({ detail }) => set('noteReasonCode')(detail.selectedOption.value ?? '')}
                      invalid={Boolean(errors.noteReasonCode)}
                      ariaRequired
                    />
                  </FormField>
                  <FormField
                    label={
                      <span>
                        {text.note.reasonDescription} <i>- {text.optional}</i>
                      </span>
                    }
                    errorText={errors.noteReasonDescription}
                  >
                    <Input
                      value={form.noteReasonDescription}
                      onChange={({ detail }) => set('noteReasonDescription')(detail.value)}
                      invalid={Boolean(errors.noteReasonDescription)}
                    />
                  </FormField>
                </SpaceBetween>
              </div>
            )}
            <FormField label={text.client} errorText={errors.clientTaxId}>
              <Select
                options={clientOptions}
                selectedOption={clientOptions.find((option) => option.value === form.clientTaxId) ?? null}
                placeholder={text.clientPlaceholder}
                onChange={({ detail }) => set('clientTaxId')(detail.selectedOption.value ?? '')}
                statusType={clientsLoading ? 'loading' : clientsError ? 'error' : 'finished'}
                loadingText={invoicesMessages.filters.clientsLoading}
                errorText={invoicesMessages.filters.clientsError}
                invalid={Boolean(errors.clientTaxId)}
                ariaRequired
              />
            </FormField>
            <ColumnLayout columns={2}>
              <FormField label={text.currency} errorText={errors.currency}>
                <Select
                  options={CURRENCY_OPTIONS}
                  selectedOption={CURRENCY_OPTIONS.find((option) => option.value === form.currency) ?? null}
                  onChange={({ detail }) => set('currency')(detail.selectedOption.value as Currency)}
                  ariaRequired
                />
              </FormField>
              <FormField
                label={text.issueDate}
                errorText={issueDateError}
                constraintText={issueDateRead ? text.issueDateRead(issueDateRead) : text.issueDateConstraint}
              >
                <DateInput
                  value={form.issueDate}
                  onChange={set('issueDate')}
                  onBlur={() => setDateLeft(true)}
                  invalid={Boolean(issueDateError)}
                  ariaRequired
                  isDateEnabled={(date) => issueDateProblem(date) === null}
                  dateDisabledReason={(date) =>
                    issueDateProblem(date) === 'FUTURE' ? text.issueDateFuture : text.issueDateTooOld
                  }
                />
              </FormField>
            </ColumnLayout>
            <ColumnLayout columns={2}>
              <FormField label={text.amount} errorText={errors.amount} constraintText={text.amountConstraint}>
                <Input
                  value={form.amount}
                  inputMode="decimal"
                  onChange={({ detail }) => set('amount')(detail.value)}
                  invalid={Boolean(errors.amount)}
                  ariaRequired
                  autoComplete={false}
                />
              </FormField>
              <FormField label={text.taxAmount} errorText={errors.taxAmount}>
                <Input
                  value={form.taxAmount}
                  inputMode="decimal"
                  onChange={({ detail }) => set('taxAmount')(detail.value)}
                  invalid={Boolean(errors.taxAmount)}
                  ariaRequired
                  autoComplete={false}
                />
              </FormField>
            </ColumnLayout>
            <NewInvoicePaymentFields
              form={payment}
              currency={form.currency}
              errors={paymentErrors}
              onChange={(change) => setPayment((current) => ({ ...current, ...change }))}
            />
            <FormField label={text.supplierTaxId} errorText={errors.supplierTaxId}>
              <Input
                value={form.supplierTaxId}
                inputMode="numeric"
                readOnly={Boolean(props.supplierTaxId)}
                onChange={({ detail }) => set('supplierTaxId')(detail.value.replace(/\D/g, '').slice(0, 11))}
                invalid={Boolean(errors.supplierTaxId)}
                ariaRequired
              />
            </FormField>
            <FormField
              label={text.supplierName}
              description={props.supplierName ? text.supplierNameFixed : text.supplierNameTyped}
              errorText={errors.supplierName}
            >
              <Input
                value={form.supplierName}
                readOnly={Boolean(props.supplierName)}
                onChange={({ detail }) => set('supplierName')(detail.value)}
                invalid={Boolean(errors.supplierName)}
                ariaRequired
              />
            </FormField>
            <FormField
              label={
                <span>
                  {text.notes} <i>- {text.optional}</i>
                </span>
              }
              errorText={errors.notes}
            >
              <Textarea
                value={form.notes}
                rows={3}
                onChange={({ detail }) => set('notes')(detail.value)}
                invalid={Boolean(errors.notes)}
              />
            </FormField>
            <FormField label={text.pdf} errorText={errors.pdfUrl} data-testid="new-invoice-pdf">
              <FileUpload
                value={form.pdf}
                onChange={({ detail }) => set('pdf')(detail.value.slice(-1))}
                accept={[FILE_RULES.INVOICE_PDF.extension, ...FILE_RULES.INVOICE_PDF.contentTypes].join(',')}
                constraintText={text.pdfConstraint}
                showFileSize
                ariaRequired
                i18nStrings={{
                  uploadButtonText: () => text.pdfButton,
                  dropzoneText: () => text.pdfButton,
                  removeFileAriaLabel: (index) => text.pdfRemove(index + 1),
                  errorIconAriaLabel: text.errorIcon,
                }}
              />
            </FormField>
          </SpaceBetween>
        </Form>
      </form>
    </Box>
  );
}

import { useState } from 'react';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FileUpload from '@cloudscape-design/components/file-upload';
import FormField from '@cloudscape-design/components/form-field';
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
  type Currency,
  type InvoiceType,
  type NoteOriginalType,
} from '@portal/shared';
import { DateInput } from '../../components/date-input';
import { invoicesMessages } from './messages';
import { useClients } from '../../hooks/use-clients';
import { issueDateOf, type FieldErrors, type NewInvoiceForm } from './new-invoice-form';
import { FILE_RULES } from './upload-file';

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

/** Sets one field of the form. */
export type SetField = <K extends keyof NewInvoiceForm>(field: K) => (value: NewInvoiceForm[K]) => void;

interface FieldsProps {
  readonly form: NewInvoiceForm;
  readonly errors: FieldErrors;
  readonly set: SetField;
}

/** The document's series, correlative and type; a new type clears the note's reason (one catálogo's is no other's). */
export function DocumentFields({ form, errors, set, onType }: FieldsProps & { onType: (type: InvoiceType) => void }) {
  return (
    <>
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
          onChange={({ detail }) => onType(detail.selectedOption.value as InvoiceType)}
          invalid={Boolean(errors.type)}
          ariaRequired
        />
      </FormField>
    </>
  );
}

/** A note names its original and a reason of SUNAT's catálogo 09 (credit) or 10 (debit). */
export function NoteFields({ form, errors, set }: FieldsProps) {
  const reasonOptions: SelectProps.Option[] = isNoteType(form.type)
    ? noteReasonsOf(form.type).map((entry) => ({
        value: entry.code,
        label: text.note.reasonOption(entry.code, entry.label),
      }))
    : [];
  return (
    <div data-testid="new-invoice-note">
      <SpaceBetween size="m">
        <FormField label={text.note.header} description={text.note.description} errorText={errors.billingReference}>
          <ColumnLayout columns={3}>
            <FormField label={text.note.originalType}>
              <Select
                options={ORIGINAL_TYPE_OPTIONS}
                selectedOption={ORIGINAL_TYPE_OPTIONS.find((option) => option.value === form.originalType) ?? null}
                onChange={({ detail }) => set('originalType')(detail.selectedOption.value as NoteOriginalType)}
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
                onChange={({ detail }) => set('originalNumericId')(detail.value.replace(/\D/g, '').slice(0, 8))}
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
  );
}

/** The company the document is issued to, among the group's. */
export function ClientField({ form, errors, set }: FieldsProps) {
  const { clients, isLoading: clientsLoading, error: clientsError } = useClients();
  const clientOptions: SelectProps.Option[] = clients.map((client) => ({
    value: client.taxId,
    label: client.name,
    description: client.taxId,
  }));
  return (
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
  );
}

/** The currency and issue date, read back in words once typed, then the amount and its IGV. */
export function AmountFields({ form, errors, set }: FieldsProps) {
  // The date says what is wrong with it as soon as the user leaves the field, not only on sending.
  const [dateLeft, setDateLeft] = useState(false);
  const typedDate = issueDateOf(form.issueDate);
  const issueDateError =
    errors.issueDate ?? (dateLeft && form.issueDate.trim() && 'error' in typedDate ? typedDate.error : undefined);
  const issueDateRead = 'date' in typedDate ? DAY_IN_WORDS.format(new Date(`${typedDate.date}T00:00:00Z`)) : null;
  return (
    <>
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
    </>
  );
}

/** Who issued it (fixed when the directory knows the supplier), the notes and the document's PDF. */
export function SupplierFields({
  form,
  errors,
  set,
  fixedTaxId,
  fixedName,
}: FieldsProps & { fixedTaxId: boolean; fixedName: boolean }) {
  return (
    <>
      <FormField label={text.supplierTaxId} errorText={errors.supplierTaxId}>
        <Input
          value={form.supplierTaxId}
          inputMode="numeric"
          readOnly={fixedTaxId}
          onChange={({ detail }) => set('supplierTaxId')(detail.value.replace(/\D/g, '').slice(0, 11))}
          invalid={Boolean(errors.supplierTaxId)}
          ariaRequired
        />
      </FormField>
      <FormField
        label={text.supplierName}
        description={fixedName ? text.supplierNameFixed : text.supplierNameTyped}
        errorText={errors.supplierName}
      >
        <Input
          value={form.supplierName}
          readOnly={fixedName}
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
    </>
  );
}

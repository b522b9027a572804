import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SegmentedControl from '@cloudscape-design/components/segmented-control';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import {
  DETRACTION_CODES,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
  type Currency,
  type PaymentMethod,
} from '@portal/shared';
import { DateInput } from '../../components/date-input';
import type { PaymentErrors, PaymentForm } from './new-invoice-payment';
import { paymentMessages } from './payment-messages';

const text = paymentMessages.form;

const CODE_OPTIONS: SelectProps.Option[] = Object.entries(DETRACTION_CODES).map(([code, label]) => ({
  value: code,
  label: `${code} - ${label}`,
}));

/**
 * The forma de pago (Contado, or Crédito with its cuotas) and the detracción of 'Nuevo comprobante', as the
 * document states them (docs/ap-payment.md). The deposit of a detracción is computed by the API from the total
 * and the percentage; a document in dollars states it in soles.
 */
export function NewInvoicePaymentFields({
  form,
  currency,
  errors,
  onChange,
}: {
  form: PaymentForm;
  currency: Currency;
  errors: PaymentErrors;
  onChange: (change: Partial<PaymentForm>) => void;
}) {
  return (
    <SpaceBetween size="m">
      <FormField label={text.method} description={text.methodDescription} errorText={errors.installments}>
        <SegmentedControl
          label={text.method}
          selectedId={form.method}
          options={PAYMENT_METHODS.map((method) => ({ id: method, text: PAYMENT_METHOD_LABELS[method] }))}
          onChange={({ detail }) => {
            const method = detail.selectedId as PaymentMethod;
            // Credit always starts with one cuota to fill.
            onChange({
              method,
              installments:
                method === 'CREDITO' && form.installments.length === 0
                  ? [{ amount: '', dueDate: '' }]
                  : form.installments,
            });
          }}
        />
      </FormField>
      {form.method === 'CREDITO' && <InstallmentFields form={form} errors={errors} onChange={onChange} />}
      <Checkbox checked={form.detraction} onChange={({ detail }) => onChange({ detraction: detail.checked })}>
        {text.detraction}
      </Checkbox>
      {form.detraction && <DetractionFields form={form} currency={currency} errors={errors} onChange={onChange} />}
    </SpaceBetween>
  );
}

interface PaymentFieldsProps {
  form: PaymentForm;
  errors: PaymentErrors;
  onChange: (change: Partial<PaymentForm>) => void;
}

/** A crédito's cuotas: each amount and due date, one removable while there are more, and 'Agregar cuota'. */
function InstallmentFields({ form, errors, onChange }: PaymentFieldsProps) {
  const setInstallment = (index: number, change: Partial<PaymentForm['installments'][number]>) =>
    onChange({
      installments: form.installments.map((installment, i) =>
        i === index ? { ...installment, ...change } : installment,
      ),
    });
  return (
    <SpaceBetween size="s" data-testid="new-invoice-installments">
      {form.installments.map((installment, i) => (
        <ColumnLayout columns={2} key={i}>
          <FormField label={text.installmentAmount(i + 1)} errorText={errors[`installmentAmount${i}`]}>
            <Input
              value={installment.amount}
              inputMode="decimal"
              onChange={({ detail }) => setInstallment(i, { amount: detail.value })}
              invalid={Boolean(errors[`installmentAmount${i}`])}
              ariaRequired
              autoComplete={false}
            />
          </FormField>
          <FormField
            label={text.installmentDueDate(i + 1)}
            errorText={errors[`installmentDueDate${i}`]}
            secondaryControl={
              form.installments.length > 1 ? (
                <Button
                  formAction="none"
                  iconName="remove"
                  variant="icon"
                  ariaLabel={text.removeInstallment(i + 1)}
                  onClick={() => onChange({ installments: form.installments.filter((_, j) => j !== i) })}
                />
              ) : undefined
            }
          >
            <DateInput
              value={installment.dueDate}
              onChange={(dueDate) => setInstallment(i, { dueDate })}
              invalid={Boolean(errors[`installmentDueDate${i}`])}
              ariaRequired
            />
          </FormField>
        </ColumnLayout>
      ))}
      <Button
        formAction="none"
        iconName="add-plus"
        onClick={() => onChange({ installments: [...form.installments, { amount: '', dueDate: '' }] })}
      >
        {text.addInstallment}
      </Button>
    </SpaceBetween>
  );
}

/** The detracción: its code, percentage and account, and in dollars the deposit in soles. */
function DetractionFields({ form, currency, errors, onChange }: PaymentFieldsProps & { currency: Currency }) {
  return (
    <SpaceBetween size="m" data-testid="new-invoice-detraction">
      <FormField label={text.detractionCode} errorText={errors.detractionCode}>
        <Select
          options={CODE_OPTIONS}
          selectedOption={CODE_OPTIONS.find((option) => option.value === form.detractionCode) ?? null}
          placeholder={text.detractionCodePlaceholder}
          filteringType="auto"
          onChange={({ detail }) => onChange({ detractionCode: detail.selectedOption.value ?? '' })}
          invalid={Boolean(errors.detractionCode)}
          ariaRequired
        />
      </FormField>
      <ColumnLayout columns={2}>
        <FormField label={text.detractionPercent} errorText={errors.detractionPercent}>
          <Input
            value={form.detractionPercent}
            inputMode="decimal"
            onChange={({ detail }) => onChange({ detractionPercent: detail.value })}
            invalid={Boolean(errors.detractionPercent)}
            ariaRequired
            autoComplete={false}
          />
        </FormField>
        <FormField label={text.detractionAccount} errorText={errors.detractionAccount}>
          <Input
            value={form.detractionAccount}
            onChange={({ detail }) => onChange({ detractionAccount: detail.value.slice(0, 30) })}
            invalid={Boolean(errors.detractionAccount)}
            autoComplete={false}
          />
        </FormField>
      </ColumnLayout>
      {currency !== 'PEN' && (
        <FormField
          label={text.detractionAmountPen}
          description={text.detractionAmountPenDescription}
          errorText={errors.detractionAmountPen}
        >
          <Input
            value={form.detractionAmountPen}
            inputMode="decimal"
            onChange={({ detail }) => onChange({ detractionAmountPen: detail.value })}
            invalid={Boolean(errors.detractionAmountPen)}
            ariaRequired
            autoComplete={false}
          />
        </FormField>
      )}
    </SpaceBetween>
  );
}

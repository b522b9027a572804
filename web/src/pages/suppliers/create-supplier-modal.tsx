import { useRef, useState, type FormEvent } from 'react';
import Box from '@cloudscape-design/components/box';
import Checkbox from '@cloudscape-design/components/checkbox';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input, { type InputProps } from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { formatErrorMessage, routes, type CreatedExternalUser } from '@portal/shared';
import { ApiError, apiCall, errorMessage } from '../../api/client';
import { ActionModal } from '../../components/action-modal';
import { adminMessages } from '../admin-shared/messages';
import { suppliersMessages } from './messages';
import {
  EMPTY_SUPPLIER_FORM,
  SUPPLIER_FIELDS,
  fieldError,
  formErrors,
  type SupplierErrors,
  type SupplierField,
  type SupplierForm,
} from './supplier-form';

const text = suppliersMessages.create;
const FORM_ID = 'create-supplier-form';

/** The API's answer that belongs beside one field rather than above the form. */
const FIELD_OF_CODE: Readonly<Record<string, SupplierField>> = {
  ERROR_USER_ALREADY_EXISTS: 'email',
  ERROR_INVALID_RUC: 'taxId',
};

const INPUTS: Record<
  SupplierField,
  {
    label: string;
    type?: InputProps.Type;
    autoComplete?: string;
    inputMode?: InputProps.InputMode;
    placeholder?: string;
    constraint?: string;
  }
> = {
  email: { label: text.email, type: 'email', autoComplete: 'off', placeholder: text.emailPlaceholder },
  firstName: { label: text.firstName, autoComplete: 'off' },
  lastName: { label: text.lastName, autoComplete: 'off' },
  taxId: { label: text.taxId, inputMode: 'numeric', autoComplete: 'off', constraint: text.taxIdConstraint },
  businessName: { label: text.businessName, autoComplete: 'off' },
};

/**
 * 'Crear proveedor': the supplier account's form, each field checked as it is left with the API's own
 * body schema. The API creates the account and e-mails the portal's invitation with a temporary password.
 */
export function CreateSupplierModal(props: { onDismiss: () => void; onCreated: (user: CreatedExternalUser) => void }) {
  const [form, setForm] = useState<SupplierForm>(EMPTY_SUPPLIER_FORM);
  const [errors, setErrors] = useState<SupplierErrors>({});
  const [touched, setTouched] = useState<ReadonlySet<SupplierField>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refs = useRef<Partial<Record<SupplierField, InputProps.Ref | null>>>({});

  const change = (field: SupplierField, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    // Once a field was left, it is checked as it is typed: the message goes as soon as it is right.
    if (touched.has(field)) setErrors((current) => ({ ...current, [field]: fieldError(field, value) }));
  };
  const leave = (field: SupplierField) => {
    setTouched((current) => new Set(current).add(field));
    setErrors((current) => ({ ...current, [field]: fieldError(field, form[field]) }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const found = formErrors(form);
    setTouched(new Set(SUPPLIER_FIELDS));
    setErrors(found);
    const first = SUPPLIER_FIELDS.find((field) => found[field]);
    if (first) {
      refs.current[first]?.focus();
      return;
    }
    setBusy(true);
    try {
      const created = await apiCall(routes.createExternalUser, { body: form });
      props.onCreated(created);
    } catch (error) {
      const code = error instanceof ApiError ? error.code : null;
      const field = code ? FIELD_OF_CODE[code] : undefined;
      if (code && field) {
        setErrors((current) => ({ ...current, [field]: formatErrorMessage(code as 'ERROR_USER_ALREADY_EXISTS') }));
        refs.current[field]?.focus();
      } else {
        setFailure(errorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <ActionModal
      header={text.title}
      busy={busy}
      onDismiss={props.onDismiss}
      action={{ text: text.submit, form: FORM_ID }}
      cancelText={adminMessages.cancel}
      closeAriaLabel={adminMessages.closeModal}
      testId="create-supplier-modal"
    >
      <form id={FORM_ID} onSubmit={(event) => void submit(event)} noValidate>
        <Form errorText={failure ?? undefined} errorIconAriaLabel={adminMessages.errorIcon}>
          <SpaceBetween size="m">
            <Box color="text-body-secondary">{text.description}</Box>
            {SUPPLIER_FIELDS.map((field) => {
              const input = INPUTS[field];
              return (
                <FormField key={field} label={input.label} constraintText={input.constraint} errorText={errors[field]}>
                  <Input
                    ref={(node) => {
                      refs.current[field] = node;
                    }}
                    name={field}
                    value={form[field]}
                    type={input.type}
                    inputMode={input.inputMode}
                    autoComplete={input.autoComplete}
                    placeholder={input.placeholder}
                    invalid={Boolean(errors[field])}
                    ariaRequired
                    disabled={busy}
                    onChange={({ detail }) => change(field, detail.value)}
                    onBlur={() => leave(field)}
                  />
                </FormField>
              );
            })}
            <FormField label={text.reception} description={text.receptionDescription}>
              <Checkbox
                checked={form.canReceiveEmails}
                disabled={busy}
                onChange={({ detail }) => setForm((current) => ({ ...current, canReceiveEmails: detail.checked }))}
              >
                {text.receptionLabel}
              </Checkbox>
            </FormField>
          </SpaceBetween>
        </Form>
      </form>
    </ActionModal>
  );
}

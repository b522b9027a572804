import {
  CreateExternalUserBody,
  formatErrorMessage,
  isValidRuc,
  type RouteBodyInput,
  type routes,
} from '@portal/shared';
import { suppliersMessages } from './messages';

const text = suppliersMessages.create.errors;

export type SupplierForm = Required<RouteBodyInput<typeof routes.createExternalUser>>;
export type SupplierField = Exclude<keyof SupplierForm, 'canReceiveEmails'>;
export type SupplierErrors = Partial<Record<SupplierField, string>>;

export const SUPPLIER_FIELDS: readonly SupplierField[] = ['email', 'firstName', 'lastName', 'taxId', 'businessName'];

export const EMPTY_SUPPLIER_FORM: SupplierForm = {
  email: '',
  firstName: '',
  lastName: '',
  taxId: '',
  businessName: '',
  canReceiveEmails: true,
};

const REQUIRED: Record<SupplierField, string> = {
  email: text.emailRequired,
  firstName: text.firstNameRequired,
  lastName: text.lastNameRequired,
  taxId: text.taxIdRequired,
  businessName: text.businessNameRequired,
};

const INVALID: Partial<Record<SupplierField, string>> = {
  email: text.emailInvalid,
  taxId: text.taxIdFormat,
};

/**
 * One field checked by its own schema of the API's body (CreateExternalUserBody), with the message
 * people read here; the RUC then by SUNAT's check digit, the rule the API applies too.
 */
export function fieldError(field: SupplierField, value: string): string | undefined {
  if (value.trim() === '') return REQUIRED[field];
  const result = CreateExternalUserBody.shape[field].safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    if (issue?.code === 'too_big') return text.tooLong(Number(issue.maximum));
    return INVALID[field] ?? REQUIRED[field];
  }
  if (field === 'taxId' && !isValidRuc(result.data)) {
    return formatErrorMessage('ERROR_INVALID_RUC', { ruc: result.data });
  }
  return undefined;
}

/** Every field's problem; empty when the form can be sent. */
export function formErrors(form: SupplierForm): SupplierErrors {
  const errors: SupplierErrors = {};
  for (const field of SUPPLIER_FIELDS) {
    const error = fieldError(field, form[field]);
    if (error) errors[field] = error;
  }
  return errors;
}

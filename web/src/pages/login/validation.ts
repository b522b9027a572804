import { messages } from '../../messages';

/** A plausible e-mail address: the identity service has the last word. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** The e-mail field's error once the form was submitted: required, then a plausible address. */
export function emailError(email: string, submitted: boolean): string | undefined {
  if (!submitted) return undefined;
  if (!email.trim()) return messages.login.emailRequired;
  return isEmail(email) ? undefined : messages.login.emailInvalid;
}

/**
 * The corporate domain of an e-mail (config.json `corporateEmailDomains`), or null: staff sign in with the
 * corporate button and have no portal password. A subdomain of a corporate domain counts too.
 */
export function corporateDomainOf(email: string, domains: readonly string[]): string | null {
  const at = email.trim().lastIndexOf('@');
  if (at < 0) return null;
  const domain = email
    .trim()
    .slice(at + 1)
    .toLowerCase();
  return domains.find((corporate) => domain === corporate || domain.endsWith(`.${corporate}`)) ?? null;
}

/** The user pool's password policy (infra/lib/constructs/identity.ts): 12+ characters of every class. */
export function isStrongPassword(value: string): boolean {
  return (
    value.length >= 12 && /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) && /[^A-Za-z0-9]/.test(value)
  );
}

/** Errors of a new password and its repetition, once the form was submitted. */
export function newPasswordErrors(
  password: string,
  repeated: string,
  submitted: boolean,
): { password?: string; repeated?: string } {
  if (!submitted) return {};
  return {
    password: isStrongPassword(password) ? undefined : messages.newPassword.tooWeak,
    repeated: password === repeated ? undefined : messages.newPassword.mismatch,
  };
}

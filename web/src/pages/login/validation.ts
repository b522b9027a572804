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

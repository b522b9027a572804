import { useState } from 'react';
import { confirmSignIn } from 'aws-amplify/auth';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { messages } from '../../messages';
import { authErrorName } from '../../session/auth-errors';
import { CodeField, PasswordField } from './login-fields';
import { LoginStepForm } from './login-step-form';
import { newPasswordErrors } from './validation';

/** What the user typed: the new password and, where the step asks for it, the e-mailed code. */
export interface PasswordInput {
  readonly password: string;
  readonly code: string;
}

/**
 * The step that sets a password: a new password and its repetition (the pool's policy as the constraint
 * text), and first the e-mailed code when `withCode`. `onSubmit` throws when the identity service refuses;
 * `failures` names the sentence for each of its error names, `fallbackFailure` the one for anything else.
 */
export function PasswordForm(props: {
  title: string;
  description: string;
  submitText: string;
  withCode?: boolean;
  onSubmit: (input: PasswordInput) => Promise<void>;
  failures: ReadonlyMap<string, string>;
  fallbackFailure: string;
  failureTestId: string;
  onBack: () => void;
}) {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = newPasswordErrors(password, repeated, submitted);
  const missingCode = Boolean(props.withCode) && !code.trim();
  const codeError = submitted && missingCode ? messages.resetPassword.codeRequired : undefined;

  const submit = async () => {
    setSubmitted(true);
    setFailure(null);
    const problems = newPasswordErrors(password, repeated, true);
    if (missingCode || problems.password || problems.repeated) return;
    setBusy(true);
    try {
      await props.onSubmit({ password, code: code.trim() });
    } catch (error) {
      setFailure(props.failures.get(authErrorName(error) ?? '') ?? props.fallbackFailure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <LoginStepForm
      title={props.title}
      description={props.description}
      submitText={props.submitText}
      busy={busy}
      onSubmit={submit}
      onBack={props.onBack}
      outcome={failure ? { type: 'error', text: failure, testId: props.failureTestId } : null}
    >
      {props.withCode && (
        <CodeField
          label={messages.resetPassword.codeLabel}
          name="code"
          value={code}
          onChange={setCode}
          errorText={codeError}
        />
      )}
      <SpaceBetween size="l">
        <PasswordField
          label={messages.newPassword.passwordLabel}
          constraintText={messages.newPassword.constraint}
          name="new-password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          errorText={errors.password}
        />
        <PasswordField
          label={messages.newPassword.repeatLabel}
          name="repeat-password"
          autoComplete="new-password"
          value={repeated}
          onChange={setRepeated}
          errorText={errors.repeated}
        />
      </SpaceBetween>
    </LoginStepForm>
  );
}

/** Cognito's refusals of a first password, as the supplier reads them. */
const NEW_PASSWORD_FAILURES: ReadonlyMap<string, string> = new Map([
  ['InvalidPasswordException', messages.newPassword.rejected],
  ['NotAuthorizedException', messages.newPassword.expired],
]);

/** Cognito answered the new password without completing the sign-in. */
class SignInIncompleteError extends Error {}

/**
 * First sign-in of an invited supplier: Cognito asks for a new password in place of the temporary one
 * (NEW_PASSWORD_REQUIRED); the sign-in completes with it.
 */
export function NewPasswordForm({ onSignedIn, onCancel }: { onSignedIn: () => Promise<void>; onCancel: () => void }) {
  return (
    <PasswordForm
      title={messages.newPassword.title}
      description={messages.newPassword.description}
      submitText={messages.newPassword.submit}
      onSubmit={async ({ password }) => {
        const result = await confirmSignIn({ challengeResponse: password });
        if (!result.isSignedIn) throw new SignInIncompleteError();
        await onSignedIn();
      }}
      failures={NEW_PASSWORD_FAILURES}
      fallbackFailure={messages.login.failed}
      failureTestId="new-password-failure"
      onBack={onCancel}
    />
  );
}

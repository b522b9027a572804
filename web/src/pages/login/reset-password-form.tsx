import { useState } from 'react';
import { confirmResetPassword, resetPassword } from 'aws-amplify/auth';
import Button from '@cloudscape-design/components/button';
import { messages } from '../../messages';
import { authErrorName } from '../../session/auth-errors';
import { EmailField } from './login-fields';
import { LoginStepForm } from './login-step-form';
import { PasswordForm } from './new-password-form';
import { runtimeConfig } from '../../config/runtime-config';
import { corporateDomainOf, emailError } from './validation';

type Outcome = { type: 'success' | 'error'; text: string } | null;

/**
 * Password reset (spec §2 Login): asks the identity service to e-mail a code, then takes the code and
 * the new password. `onBack(done)` returns to the sign-in form, saying whether the password changed.
 */
export function ResetPasswordForm({
  initialEmail,
  onBack,
}: {
  initialEmail: string;
  onBack: (email: string, done: boolean) => void;
}) {
  const [stage, setStage] = useState<'request' | 'confirm'>('request');
  const [email, setEmail] = useState(initialEmail);
  if (stage === 'confirm') {
    return <ConfirmResetForm email={email} onBack={(done) => onBack(email, done)} />;
  }
  return (
    <RequestResetForm
      email={email}
      onEmail={setEmail}
      onHaveCode={() => setStage('confirm')}
      onBack={() => onBack(email, false)}
    />
  );
}

function RequestResetForm({
  email,
  onEmail: setEmail,
  onHaveCode,
  onBack,
}: {
  email: string;
  onEmail: (email: string) => void;
  onHaveCode: () => void;
  onBack: () => void;
}) {
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const emailProblem = emailError(email, submitted);

  const submit = async () => {
    setSubmitted(true);
    setOutcome(null);
    if (emailError(email, true)) return;
    const corporateDomain = corporateDomainOf(email, runtimeConfig().corporateEmailDomains);
    if (corporateDomain) {
      setOutcome({ type: 'error', text: messages.resetPassword.corporate(corporateDomain) });
      return;
    }
    setBusy(true);
    try {
      await resetPassword({ username: email.trim() });
      setOutcome({ type: 'success', text: messages.resetPassword.success });
    } catch (error) {
      const name = authErrorName(error);
      // Whether an account exists is not disclosed: an unknown e-mail reads like a sent one.
      if (name === 'UserNotFoundException') setOutcome({ type: 'success', text: messages.resetPassword.success });
      else if (name === 'LimitExceededException')
        setOutcome({ type: 'error', text: messages.resetPassword.tooManyAttempts });
      else setOutcome({ type: 'error', text: messages.resetPassword.failed });
    } finally {
      setBusy(false);
    }
  };

  return (
    <LoginStepForm
      title={messages.resetPassword.title}
      description={messages.resetPassword.description}
      submitText={messages.resetPassword.submit}
      busy={busy}
      submitDisabled={outcome?.type === 'success'}
      onSubmit={submit}
      onBack={onBack}
      extraActions={
        <Button formAction="none" onClick={onHaveCode} disabled={Boolean(emailError(email, true))}>
          {messages.resetPassword.haveCode}
        </Button>
      }
      outcome={outcome ? { ...outcome, testId: 'reset-password-outcome' } : null}
    >
      <EmailField
        label={messages.resetPassword.emailLabel}
        name="reset-email"
        value={email}
        onChange={setEmail}
        errorText={emailProblem}
      />
    </LoginStepForm>
  );
}

/** Cognito's refusals of a reset code or its new password, as the user reads them. */
const CONFIRM_RESET_FAILURES: ReadonlyMap<string, string> = new Map([
  ['CodeMismatchException', messages.resetPassword.codeMismatch],
  ['ExpiredCodeException', messages.resetPassword.codeExpired],
  ['InvalidPasswordException', messages.newPassword.rejected],
  ['LimitExceededException', messages.resetPassword.tooManyAttempts],
]);

/** The code from the e-mail and the new password: Cognito's ConfirmForgotPassword. */
function ConfirmResetForm({ email, onBack }: { email: string; onBack: (done: boolean) => void }) {
  return (
    <PasswordForm
      title={messages.resetPassword.codeTitle}
      description={messages.resetPassword.codeDescription}
      submitText={messages.resetPassword.confirm}
      withCode
      onSubmit={async ({ password, code }) => {
        await confirmResetPassword({ username: email.trim(), confirmationCode: code, newPassword: password });
        onBack(true);
      }}
      failures={CONFIRM_RESET_FAILURES}
      fallbackFailure={messages.resetPassword.confirmFailed}
      failureTestId="reset-password-failure"
      onBack={() => onBack(false)}
    />
  );
}

import { useState } from 'react';
import { confirmResetPassword, resetPassword } from 'aws-amplify/auth';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import { messages } from '../../messages';
import { authErrorName } from '../../session/auth-errors';
import { EmailField } from './email-field';
import { LoginStepForm } from './login-step-form';
import { NewPasswordFields } from './new-password-fields';
import { runtimeConfig } from '../../config/runtime-config';
import { corporateDomainOf, emailError, newPasswordErrors } from './validation';

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

/** The code from the e-mail and the new password: Cognito's ConfirmForgotPassword. */
function ConfirmResetForm({ email, onBack }: { email: string; onBack: (done: boolean) => void }) {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = newPasswordErrors(password, repeated, submitted);
  const codeError = submitted && !code.trim() ? messages.resetPassword.codeRequired : undefined;

  const submit = async () => {
    setSubmitted(true);
    setFailure(null);
    const problems = newPasswordErrors(password, repeated, true);
    if (!code.trim() || problems.password || problems.repeated) return;
    setBusy(true);
    try {
      await confirmResetPassword({ username: email.trim(), confirmationCode: code.trim(), newPassword: password });
      onBack(true);
    } catch (error) {
      const name = authErrorName(error);
      if (name === 'CodeMismatchException') setFailure(messages.resetPassword.codeMismatch);
      else if (name === 'ExpiredCodeException') setFailure(messages.resetPassword.codeExpired);
      else if (name === 'InvalidPasswordException') setFailure(messages.newPassword.rejected);
      else if (name === 'LimitExceededException') setFailure(messages.resetPassword.tooManyAttempts);
      else setFailure(messages.resetPassword.confirmFailed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <LoginStepForm
      title={messages.resetPassword.codeTitle}
      description={messages.resetPassword.codeDescription}
      submitText={messages.resetPassword.confirm}
      busy={busy}
      onSubmit={submit}
      onBack={() => onBack(false)}
      outcome={failure ? { type: 'error', text: failure, testId: 'reset-password-failure' } : null}
    >
      <FormField label={messages.resetPassword.codeLabel} errorText={codeError}>
        <Input
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={({ detail }) => setCode(detail.value)}
          invalid={Boolean(codeError)}
        />
      </FormField>
      <NewPasswordFields
        password={password}
        repeated={repeated}
        onPassword={setPassword}
        onRepeated={setRepeated}
        errors={errors}
      />
    </LoginStepForm>
  );
}

import { useState, type FormEvent } from 'react';
import { resetPassword } from 'aws-amplify/auth';
import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { messages } from '../../messages';
import { authErrorName } from '../../session/auth-errors';
import { EmailField } from './email-field';
import { emailError } from './validation';

type Outcome = { type: 'success' | 'error'; text: string } | null;

/** Asks the identity service to e-mail password-reset instructions (spec §2 Login). */
export function ResetPasswordForm({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const emailProblem = emailError(email, submitted);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setOutcome(null);
    if (emailError(email, true)) return;
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
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Form
        header={
          <Header variant="h2" description={messages.resetPassword.description}>
            {messages.resetPassword.title}
          </Header>
        }
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            <Button formAction="none" variant="link" onClick={onBack}>
              {messages.resetPassword.cancel}
            </Button>
            <Button variant="primary" formAction="submit" loading={busy} disabled={outcome?.type === 'success'}>
              {messages.resetPassword.submit}
            </Button>
          </SpaceBetween>
        }
      >
        <SpaceBetween size="l">
          {outcome && (
            <Alert type={outcome.type}>
              <span data-testid="reset-password-outcome">{outcome.text}</span>
            </Alert>
          )}
          <EmailField
            label={messages.resetPassword.emailLabel}
            name="reset-email"
            value={email}
            onChange={setEmail}
            errorText={emailProblem}
          />
        </SpaceBetween>
      </Form>
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import { confirmSignIn } from 'aws-amplify/auth';
import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { messages } from '../../messages';
import { authErrorName } from '../../session/auth-errors';
import { NewPasswordFields } from './new-password-fields';
import { newPasswordErrors } from './validation';

/**
 * First sign-in of an invited supplier: Cognito asks for a new password in place of the temporary one
 * (NEW_PASSWORD_REQUIRED); the sign-in completes with it.
 */
export function NewPasswordForm({ onSignedIn, onCancel }: { onSignedIn: () => Promise<void>; onCancel: () => void }) {
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = newPasswordErrors(password, repeated, submitted);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    const problems = newPasswordErrors(password, repeated, true);
    if (problems.password || problems.repeated) return;
    setBusy(true);
    try {
      const result = await confirmSignIn({ challengeResponse: password });
      if (!result.isSignedIn) {
        setFailure(messages.login.failed);
        return;
      }
      await onSignedIn();
    } catch (error) {
      const name = authErrorName(error);
      if (name === 'InvalidPasswordException') setFailure(messages.newPassword.rejected);
      else if (name === 'NotAuthorizedException') setFailure(messages.newPassword.expired);
      else setFailure(messages.login.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Form
        header={
          <Header variant="h2" description={messages.newPassword.description}>
            {messages.newPassword.title}
          </Header>
        }
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            <Button formAction="none" variant="link" onClick={onCancel}>
              {messages.resetPassword.cancel}
            </Button>
            <Button variant="primary" formAction="submit" loading={busy}>
              {messages.newPassword.submit}
            </Button>
          </SpaceBetween>
        }
      >
        <SpaceBetween size="l">
          {failure && (
            <Alert type="error">
              <span data-testid="new-password-failure">{failure}</span>
            </Alert>
          )}
          <NewPasswordFields
            password={password}
            repeated={repeated}
            onPassword={setPassword}
            onRepeated={setRepeated}
            errors={errors}
          />
        </SpaceBetween>
      </Form>
    </form>
  );
}

import { useState } from 'react';
import { confirmSignIn } from 'aws-amplify/auth';
import { messages } from '../../messages';
import { authErrorName } from '../../session/auth-errors';
import { LoginStepForm } from './login-step-form';
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

  const submit = async () => {
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
    <LoginStepForm
      title={messages.newPassword.title}
      description={messages.newPassword.description}
      submitText={messages.newPassword.submit}
      busy={busy}
      onSubmit={submit}
      onBack={onCancel}
      outcome={failure ? { type: 'error', text: failure, testId: 'new-password-failure' } : null}
    >
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

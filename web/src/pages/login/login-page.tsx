import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { signIn, signInWithRedirect, signOut } from 'aws-amplify/auth';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { runtimeConfig } from '../../config/runtime-config';
import { messages } from '../../messages';
import { PATHS } from '../../routing/guard';
import { authErrorName, isBadCredentials } from '../../session/auth-errors';
import { useStartSession } from '../../session/use-current-user';
import { EmailField } from './email-field';
import { ResetPasswordForm } from './reset-password-form';
import { emailError } from './validation';

type Notice = { type: 'error' | 'info'; text: string } | null;

async function signInWithPassword(username: string, password: string) {
  // The local Cognito stand-in has no SRP: the portal always uses USER_PASSWORD_AUTH.
  const attempt = () => signIn({ username, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  try {
    return await attempt();
  } catch (error) {
    // A previous session (e.g. a user sent back here by the guard) blocks a new sign-in.
    if (authErrorName(error) !== 'UserAlreadyAuthenticatedException') throw error;
    await signOut();
    return attempt();
  }
}

function SignInForm({ onForgotPassword }: { onForgotPassword: (email: string) => void }) {
  const navigate = useNavigate();
  const startSession = useStartSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const emailProblem = emailError(email, submitted);
  const passwordError = submitted && !password ? messages.login.passwordRequired : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setNotice(null);
    if (emailError(email, true) || !password) return;
    setBusy(true);
    try {
      const result = await signInWithPassword(email.trim(), password);
      if (!result.isSignedIn) {
        setNotice({ type: 'error', text: messages.login.failed });
        return;
      }
      await startSession();
      navigate(PATHS.home, { replace: true });
    } catch (error) {
      setNotice({
        type: 'error',
        text: isBadCredentials(error) ? messages.login.badCredentials : messages.login.failed,
      });
    } finally {
      setBusy(false);
    }
  };

  const corporateSignIn = async () => {
    const { oauth } = runtimeConfig();
    if (!oauth) {
      setNotice({ type: 'info', text: messages.login.corporateNotConfigured });
      return;
    }
    try {
      await signInWithRedirect({ provider: { custom: oauth.providerName } });
    } catch {
      setNotice({ type: 'error', text: messages.login.failed });
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Form>
        <SpaceBetween size="l">
          {notice && (
            <Alert type={notice.type}>
              <span data-testid="login-notice">{notice.text}</span>
            </Alert>
          )}
          <EmailField
            label={messages.login.emailLabel}
            name="email"
            placeholder={messages.login.emailPlaceholder}
            value={email}
            onChange={setEmail}
            errorText={emailProblem}
          />
          <FormField label={messages.login.passwordLabel} errorText={passwordError}>
            <Input
              type="password"
              autoComplete="current-password"
              name="password"
              value={password}
              onChange={({ detail }) => setPassword(detail.value)}
              invalid={Boolean(passwordError)}
            />
          </FormField>
          <Link
            href="#restablecer-contrasena"
            onFollow={(event) => {
              event.preventDefault();
              onForgotPassword(email.trim());
            }}
          >
            {messages.login.forgotPassword}
          </Link>
          <SpaceBetween size="s">
            <Button variant="primary" formAction="submit" loading={busy} fullWidth>
              {messages.login.submit}
            </Button>
            <Box textAlign="center" color="text-status-inactive">
              {messages.login.or}
            </Box>
            <Button formAction="none" fullWidth onClick={() => void corporateSignIn()}>
              {messages.login.corporate}
            </Button>
          </SpaceBetween>
        </SpaceBetween>
      </Form>
    </form>
  );
}

/** /login: e-mail and password, corporate sign-in and password reset (spec §2 Login). */
export default function LoginPage() {
  const [resetEmail, setResetEmail] = useState<string | null>(null);
  return (
    <Box padding={{ vertical: 'xxxl', horizontal: 'l' }}>
      <div style={{ maxWidth: 440, margin: '0 auto' }}>
        <Container
          header={
            <Header variant="h1" description={messages.login.subtitle}>
              {messages.login.title}
            </Header>
          }
        >
          {resetEmail === null ? (
            <SignInForm onForgotPassword={setResetEmail} />
          ) : (
            <ResetPasswordForm initialEmail={resetEmail} onBack={() => setResetEmail(null)} />
          )}
        </Container>
        <Box textAlign="center" padding={{ top: 'l' }} color="text-status-inactive" fontSize="body-s">
          {messages.app.title} · {messages.app.version}
        </Box>
      </div>
    </Box>
  );
}

import { lazy, useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { ButtonProps } from '@cloudscape-design/components/button';
import { useLocation, useNavigate } from 'react-router-dom';
import { signIn, signOut } from 'aws-amplify/auth';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
// Amplify UI's Spanish dictionary: registered with this screen, where Amplify's sign-in flows run.
import '../../i18n/amplify-dictionary';
import { runtimeConfig, usesMockProvider } from '../../config/runtime-config';
import { messages } from '../../messages';
import { PATHS } from '../../routing/guard';
import { returnPathOf, safeReturnPath } from '../../routing/return-to';
import { authErrorName, isBadCredentials } from '../../session/auth-errors';
import {
  CorporateSignInError,
  completeCorporateSignIn,
  isCorporateCallback,
  startCorporateSignIn,
} from '../../session/corporate-sign-in';
import { useStartSession } from '../../session/use-current-user';
import { EmailField, PasswordField } from './login-fields';
import { NewPasswordForm } from './new-password-form';
import { ResetPasswordForm } from './reset-password-form';
import { corporateDomainOf, emailError } from './validation';
import { AppVersionFooter } from '../../components/app-version-footer';
import { ActionLink } from '../../components/action-link';

// Only the mock provider's login needs its personas (and the sample data they name): a chunk of their own.
const MockSignIn = lazy(() => import('./mock-sign-in').then((module) => ({ default: module.MockSignIn })));

type Notice = { type: 'error' | 'info' | 'success'; text: string } | null;

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

const CORPORATE_FAILURES: Record<CorporateSignInError['reason'], string> = {
  cancelled: messages.login.corporateCancelled,
  disabled: messages.login.corporateDisabled,
  failed: messages.login.failed,
};

/** The hosted UI's answer to a corporate sign-in started from this page: a session, or a notice. */
function useCorporateCallback(setNotice: (notice: Notice) => void): boolean {
  const location = useLocation();
  const navigate = useNavigate();
  const startSession = useStartSession();
  const callback = isCorporateCallback(location.search);
  const handled = useRef(false);
  useEffect(() => {
    if (!callback || handled.current) return;
    handled.current = true;
    const { oauth, userPoolClientId } = runtimeConfig();
    const finish = async () => {
      try {
        if (!oauth) throw new CorporateSignInError('failed');
        const { returnTo } = await completeCorporateSignIn(oauth, userPoolClientId, location.search);
        await startSession();
        navigate(safeReturnPath(returnTo) ?? PATHS.home, { replace: true });
      } catch (error) {
        const failure = error instanceof CorporateSignInError ? error : new CorporateSignInError('failed');
        setNotice({ type: 'error', text: CORPORATE_FAILURES[failure.reason] });
        // Still on the way to where the user was going, for another try.
        const returnTo = safeReturnPath(failure.returnTo);
        navigate(PATHS.login, { replace: true, state: returnTo ? { returnTo } : undefined });
      }
    };
    void finish();
  }, [callback, location.search, navigate, setNotice, startSession]);
  return callback;
}

/** 'Ingresar con cuenta corporativa': off to the hosted UI, or why not. */
function useCorporateSignIn(setNotice: (notice: Notice) => void, returnTo: string | null) {
  const [redirecting, setRedirecting] = useState(false);
  const corporateSignIn = async () => {
    const { oauth, userPoolClientId } = runtimeConfig();
    setNotice(null);
    if (!oauth) {
      setNotice({ type: 'info', text: messages.login.corporateNotConfigured });
      return;
    }
    setRedirecting(true);
    try {
      await startCorporateSignIn(oauth, userPoolClientId, returnTo);
    } catch {
      setRedirecting(false);
      setNotice({ type: 'error', text: messages.login.failed });
    }
  };
  return { redirecting, corporateSignIn };
}

/** 'Ingresar', 'o', and the corporate button, which comes first when the address is a corporate one. */
function SignInButtons({
  corporateFirst,
  busy,
  corporateBusy,
  corporateButton,
  onCorporate,
}: {
  corporateFirst: boolean;
  busy: boolean;
  corporateBusy: boolean;
  corporateButton: RefObject<ButtonProps.Ref | null>;
  onCorporate: () => void;
}) {
  return (
    <SpaceBetween size="s">
      <Button variant={corporateFirst ? 'normal' : 'primary'} formAction="submit" loading={busy} fullWidth>
        {messages.login.submit}
      </Button>
      <Box textAlign="center" color="text-status-inactive">
        {messages.login.or}
      </Box>
      <Button
        ref={corporateButton}
        formAction="none"
        variant={corporateFirst ? 'primary' : 'normal'}
        fullWidth
        loading={corporateBusy}
        disabled={busy}
        onClick={onCorporate}
        data-testid="corporate-sign-in"
      >
        {messages.login.corporate}
      </Button>
    </SpaceBetween>
  );
}

/** The e-mail and password, and 'Olvidé mi contraseña'. */
function CredentialsFields({
  email,
  onEmail,
  emailErrorText,
  password,
  onPassword,
  passwordError,
  onForgotPassword,
}: {
  email: string;
  onEmail: (email: string) => void;
  emailErrorText: string | undefined;
  password: string;
  onPassword: (password: string) => void;
  passwordError: string | undefined;
  onForgotPassword: () => void;
}) {
  return (
    <>
      <EmailField
        label={messages.login.emailLabel}
        name="email"
        placeholder={messages.login.emailPlaceholder}
        value={email}
        onChange={onEmail}
        errorText={emailErrorText}
      />
      <PasswordField
        label={messages.login.passwordLabel}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={onPassword}
        errorText={passwordError}
      />
      <ActionLink href="#restablecer-contrasena" onFollow={() => onForgotPassword()}>
        {messages.login.forgotPassword}
      </ActionLink>
    </>
  );
}

function SignInForm({
  initialEmail,
  initialNotice,
  onForgotPassword,
}: {
  initialEmail: string;
  initialNotice: Notice;
  onForgotPassword: (email: string) => void;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  // Where the guard stopped the user (an invoice an e-mail links to); the home page otherwise.
  const returnTo = returnPathOf(location.state);
  const enterPortal = () => navigate(returnTo ?? PATHS.home, { replace: true });
  const startSession = useStartSession();
  const [email, setEmail] = useState(initialEmail);
  const [choosingPassword, setChoosingPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(initialNotice);
  const completing = useCorporateCallback(setNotice);
  const { redirecting, corporateSignIn } = useCorporateSignIn(setNotice, returnTo);
  const corporateButton = useRef<ButtonProps.Ref>(null);
  // Staff have no portal password: their address sends them to the corporate button.
  const corporateDomain = corporateDomainOf(email, runtimeConfig().corporateEmailDomains);

  const emailProblem = emailError(email, submitted);
  const passwordError = submitted && !password && !corporateDomain ? messages.login.passwordRequired : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setNotice(null);
    if (emailError(email, true)) return;
    if (corporateDomain) {
      // Not even tried: Cognito would only answer 'Usuario o contraseña incorrectos.'
      setNotice({ type: 'info', text: messages.login.useCorporate(corporateDomain) });
      corporateButton.current?.focus();
      return;
    }
    if (!password) return;
    setBusy(true);
    try {
      const result = await signInWithPassword(email.trim(), password);
      if (result.nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED') {
        setChoosingPassword(true);
        return;
      }
      if (!result.isSignedIn) {
        setNotice({ type: 'error', text: messages.login.failed });
        return;
      }
      await startSession();
      enterPortal();
    } catch (error) {
      setNotice({
        type: 'error',
        text: isBadCredentials(error) ? messages.login.badCredentials : messages.login.failed,
      });
    } finally {
      setBusy(false);
    }
  };

  if (choosingPassword) {
    return (
      <NewPasswordForm
        onSignedIn={async () => {
          await startSession();
          enterPortal();
        }}
        onCancel={() => {
          setChoosingPassword(false);
          setPassword('');
          void signOut().catch(() => undefined);
        }}
      />
    );
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Form>
        <SpaceBetween size="l">
          {notice && (
            <Alert type={notice.type}>
              <span data-testid="login-notice">{notice.text}</span>
            </Alert>
          )}
          <CredentialsFields
            email={email}
            onEmail={setEmail}
            emailErrorText={emailProblem}
            password={password}
            onPassword={setPassword}
            passwordError={passwordError}
            onForgotPassword={() => onForgotPassword(email.trim())}
          />
          <SignInButtons
            corporateFirst={Boolean(corporateDomain)}
            busy={busy}
            corporateBusy={redirecting || completing}
            corporateButton={corporateButton}
            onCorporate={() => void corporateSignIn()}
          />
        </SpaceBetween>
      </Form>
    </form>
  );
}

/** /login: e-mail and password, corporate sign-in and password reset (spec §2 Login). */
export default function LoginPage() {
  const [resetEmail, setResetEmail] = useState<string | null>(null);
  const [returning, setReturning] = useState<{ email: string; notice: Notice }>({ email: '', notice: null });
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
          {usesMockProvider() ? (
            <MockSignIn />
          ) : resetEmail === null ? (
            <SignInForm
              initialEmail={returning.email}
              initialNotice={returning.notice}
              onForgotPassword={setResetEmail}
            />
          ) : (
            <ResetPasswordForm
              initialEmail={resetEmail}
              onBack={(email, done) => {
                setReturning({ email, notice: done ? { type: 'success', text: messages.resetPassword.done } : null });
                setResetEmail(null);
              }}
            />
          )}
        </Container>
        <AppVersionFooter />
      </div>
    </Box>
  );
}

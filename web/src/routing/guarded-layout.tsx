import { Suspense } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router-dom';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { CLIENT_MESSAGES, type Level } from '@portal/shared';
import { ApiError, SessionMissingError, TokenError } from '../api/client';
import { AppShell } from '../layout/app-shell';
import { messages } from '../messages';
import { useCurrentUser, useSignOut } from '../session/use-current-user';
import { PATHS, guardRedirect } from './guard';
import { PageLoading } from './route-fallbacks';
import { returnStateFor } from './return-to';

/** Route `handle` of a guarded screen: the levels the navigation guard lets through. */
export interface GuardHandle {
  readonly levels: readonly Level[];
}

function isGuardHandle(handle: unknown): handle is GuardHandle {
  return typeof handle === 'object' && handle !== null && Array.isArray((handle as GuardHandle).levels);
}

function useRequiredLevels(): readonly Level[] {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle;
    if (isGuardHandle(handle)) return handle.levels;
  }
  return [];
}

/** Spec §8: what failed while recognising the session user. */
function userFailure(error: Error): string {
  if (error instanceof TokenError) return CLIENT_MESSAGES.tokenFailure;
  if (error instanceof ApiError && error.status === 404) return CLIENT_MESSAGES.userLookupFailure;
  return messages.session.headerSession;
}

/**
 * Layout of every screen that declares required levels: runs the navigation guard of spec §4
 * (load the user, check the level, then the taxId) before the shell and the screen render.
 */
export function GuardedLayout() {
  const required = useRequiredLevels();
  const location = useLocation();
  const { user, error, isLoading, reload } = useCurrentUser();
  // The login brings the user back here once signed in (a link from an e-mail survives the sign-in). Keyed by the
  // navigation: a navigation back here that cancels the redirect (the sign-out's own to the root) redirects again,
  // instead of leaving the layout on a Navigate whose effect already ran, which renders nothing.
  const toLogin = <Navigate key={location.key} to={PATHS.login} replace state={returnStateFor(location)} />;
  const signOut = useSignOut();

  if (isLoading || (user === undefined && !error)) return <PageLoading text={messages.session.checking} keepFrame />;

  if (error) {
    if (error instanceof SessionMissingError || (error instanceof ApiError && error.status === 401)) return toLogin;
    if (error instanceof ApiError && error.status === 403) return <Navigate to={PATHS.forbidden} replace />;
    return (
      <Box padding="xxl">
        <Alert
          type="error"
          header={messages.session.userFetchFailed}
          action={
            <SpaceBetween direction="horizontal" size="xs">
              <Button onClick={() => void reload()}>{messages.session.retry}</Button>
              <Button onClick={() => void signOut().then(() => window.location.assign(PATHS.home))}>
                {messages.shell.signOut}
              </Button>
            </SpaceBetween>
          }
        >
          {userFailure(error)}
        </Alert>
      </Box>
    );
  }

  const redirect = guardRedirect(user ?? null, required);
  if (!user || redirect === PATHS.login) return toLogin;
  if (redirect) return <Navigate to={redirect} replace />;

  return (
    <AppShell user={user}>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </AppShell>
  );
}

import useSWR, { preload, useSWRConfig } from 'swr';
import { useCallback } from 'react';
import { signOut as amplifySignOut } from 'aws-amplify/auth';
import { parseTaxIds, routes, type SessionUser } from '@portal/shared';
import { apiCall, hasSession } from '../api/client';
import { runtimeConfig, usesMockProvider } from '../config/runtime-config';
import { forgetPagesAhead } from '../hooks/use-cursor-pages';
import { endMockSession } from './mock-session';
import { endHostedUiSession } from './corporate-sign-in';
import { chooseCompany } from './active-company';
import { forgetAudience, rememberAudience } from './audience';
import { nextSessionEpoch, sessionEpoch, useSessionEpoch } from './session-epoch';

const CURRENT_USER = 'session/current-user';

function currentUserKey(epoch: number) {
  return [CURRENT_USER, epoch] as const;
}

/** The signed-in user (GET /users/me), or null when nobody is signed in; the frame's audience follows it. */
async function loadCurrentUser(): Promise<SessionUser | null> {
  if (!(await hasSession())) return null;
  const user = await apiCall(routes.getCurrentUser);
  rememberAudience(user.level);
  return user;
}

/**
 * Starts loading the signed-in user (the guard's first question) as soon as the configuration is in, before the
 * app has rendered: useCurrentUser then takes this answer (SWR's preload) instead of asking again. On a phone
 * the app's first render takes a second or more, which the request no longer waits for.
 */
export function preloadCurrentUser(): void {
  preload(currentUserKey(sessionEpoch()), loadCurrentUser).catch(() => undefined); // the guard reports it
}

/** The user the navigation guard checks, loaded once per session and cached by SWR. */
export function useCurrentUser() {
  const epoch = useSessionEpoch();
  const { data, error, isLoading, mutate } = useSWR<SessionUser | null, Error>(currentUserKey(epoch), loadCurrentUser, {
    revalidateOnFocus: false,
    revalidateIfStale: false,
    shouldRetryOnError: false,
  });
  return {
    user: data,
    taxIds: parseTaxIds(data?.taxId),
    error,
    isLoading,
    reload: () => mutate(),
  };
}

/**
 * Forgets everything cached for the previous session (SWR's cache and a list page fetched ahead of its screen)
 * and starts a new session epoch, which every data key carries.
 */
function useResetSession() {
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    chooseCompany(null);
    forgetPagesAhead();
    const epoch = nextSessionEpoch();
    await mutate(() => true, undefined, { revalidate: false });
    return epoch;
  }, [mutate]);
}

/**
 * To call right after a successful sign-in: drops the previous session's data and loads the new
 * user before the first guarded screen asks for it. A failure is left in the cache for the guard.
 */
export function useStartSession(): () => Promise<void> {
  const { mutate } = useSWRConfig();
  const resetSession = useResetSession();
  return useCallback(async () => {
    const epoch = await resetSession();
    await mutate(currentUserKey(epoch), loadCurrentUser(), { revalidate: false, throwOnError: false });
  }, [mutate, resetSession]);
}

/**
 * Signs out and forgets the chosen company and every cached response. A corporate session also ends
 * at the hosted UI, which sends the browser back to the root.
 */
export function useSignOut(): () => Promise<void> {
  const { mutate } = useSWRConfig();
  const resetSession = useResetSession();
  return useCallback(async () => {
    try {
      if (usesMockProvider()) endMockSession();
      else await amplifySignOut();
    } finally {
      forgetAudience();
      const epoch = await resetSession();
      await mutate(currentUserKey(epoch), null, { revalidate: false });
      const { oauth, userPoolClientId } = runtimeConfig();
      endHostedUiSession(oauth, userPoolClientId);
    }
  }, [mutate, resetSession]);
}

/** Amplify auth errors carry the Cognito exception name in `name`. */
export function authErrorName(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string') {
    return error.name;
  }
  return null;
}

/** Wrong e-mail or password: Cognito answers NotAuthorized, or UserNotFound when existence errors show. */
export function isBadCredentials(error: unknown): boolean {
  const name = authErrorName(error);
  return name === 'NotAuthorizedException' || name === 'UserNotFoundException';
}

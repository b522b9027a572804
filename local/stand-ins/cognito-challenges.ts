import { isRecord, parseJson, type AuthRefusal, type UpstreamResponse } from './cognito-http.js';
import type { HostedUi } from './hosted-ui.js';

/**
 * cognito-local answers USER_PASSWORD_AUTH for a user who must change a temporary password with the
 * NEW_PASSWORD_REQUIRED challenge without checking the password, and accepts any Session string in
 * RespondToAuthChallenge: anyone knowing an invited supplier's e-mail could set its password. Cognito
 * checks the temporary password first and binds the challenge to the session it issued. This guard
 * restores both: the password is checked through cognito-local's own hosted login (which compares it),
 * and only sessions issued after that check, for that user and for three minutes, are accepted.
 */
export class NewPasswordChallenges {
  private readonly sessions = new Map<string, { usernames: string[]; expiresAt: number }>();

  constructor(private readonly hostedUi: HostedUi) {}

  /**
   * cognito-local signs disabled users in, refreshes their tokens and completes their challenges;
   * Cognito answers NotAuthorizedException "User is disabled." to each.
   */
  async refuseDisabled(requestBody: Buffer, upstream: UpstreamResponse): Promise<AuthRefusal | null> {
    const username = signedInUser(requestBody, upstream);
    if (!username || !(await this.hostedUi.isDisabled(username))) return null;
    return { __type: 'NotAuthorizedException', message: 'User is disabled.' };
  }

  async admit(requestBody: Buffer, upstream: UpstreamResponse): Promise<AuthRefusal | null> {
    if (upstream.status !== 200) return null;
    const answer = parseJson(upstream.body);
    const request = parseJson(requestBody);
    if (!isRecord(answer) || answer.ChallengeName !== 'NEW_PASSWORD_REQUIRED' || !isRecord(request)) return null;
    const parameters = isRecord(request.AuthParameters) ? request.AuthParameters : {};
    const username = typeof parameters.USERNAME === 'string' ? parameters.USERNAME : '';
    const password = typeof parameters.PASSWORD === 'string' ? parameters.PASSWORD : '';
    const clientId = typeof request.ClientId === 'string' ? request.ClientId : '';
    if (!(await this.hostedUi.checkPassword(clientId, username, password))) {
      return { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' };
    }
    const now = Date.now();
    for (const [key, value] of this.sessions) if (value.expiresAt < now) this.sessions.delete(key);
    if (typeof answer.Session === 'string') {
      // The answer may name the user by the e-mail it signed in with or by its Username (USER_ID_FOR_SRP).
      const parameters = isRecord(answer.ChallengeParameters) ? answer.ChallengeParameters : {};
      const usernames = [username, parameters.USER_ID_FOR_SRP, parameters.USERNAME]
        .filter((name): name is string => typeof name === 'string' && name.length > 0)
        .map((name) => name.toLowerCase());
      this.sessions.set(answer.Session, { usernames, expiresAt: now + 3 * 60_000 });
    }
    return null;
  }

  check(requestBody: Buffer): AuthRefusal | null {
    const request = parseJson(requestBody);
    if (!isRecord(request) || request.ChallengeName !== 'NEW_PASSWORD_REQUIRED') return null;
    const responses = isRecord(request.ChallengeResponses) ? request.ChallengeResponses : {};
    const username = typeof responses.USERNAME === 'string' ? responses.USERNAME.toLowerCase() : '';
    const session = typeof request.Session === 'string' ? this.sessions.get(request.Session) : undefined;
    if (!session || session.expiresAt < Date.now() || !session.usernames.includes(username)) {
      return { __type: 'NotAuthorizedException', message: 'Invalid session for the user.' };
    }
    this.sessions.delete(request.Session as string);
    return null;
  }
}

/** Who a successful sign-in, refresh or challenge answer is for: its ID token's username, else the request's. */
function signedInUser(requestBody: Buffer, upstream: UpstreamResponse): string | null {
  if (upstream.status !== 200) return null;
  const answer = parseJson(upstream.body);
  if (!isRecord(answer)) return null;
  const result = isRecord(answer.AuthenticationResult) ? answer.AuthenticationResult : null;
  if (result && typeof result.IdToken === 'string') {
    const payload = parseJson(Buffer.from(result.IdToken.split('.')[1] ?? '', 'base64url'));
    if (isRecord(payload) && typeof payload['cognito:username'] === 'string') return payload['cognito:username'];
  }
  const request = parseJson(requestBody);
  if (!isRecord(request)) return null;
  const parameters = isRecord(request.AuthParameters)
    ? request.AuthParameters
    : isRecord(request.ChallengeResponses)
      ? request.ChallengeResponses
      : {};
  return typeof parameters.USERNAME === 'string' ? parameters.USERNAME : null;
}

import { describe, expect, it } from 'vitest';
import { clientCredentialsOf } from '../../local/stand-ins/cognito/credentials.js';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** How the local Cognito front reads a client's credentials at /oauth2/token (RFC 6749 §2.3.1). */
describe('the token endpoint’s client authentication', () => {
  it('reads HTTP Basic (form-urlencoded id and secret) and the form’s client_id and client_secret', () => {
    expect(clientCredentialsOf(basic('abc', 's3cr:et+/='), new URLSearchParams())).toEqual({
      clientId: 'abc',
      clientSecret: 's3cr:et+/=',
    });
    const form = new URLSearchParams({ client_id: 'abc', client_secret: 'xyz' });
    expect(clientCredentialsOf(undefined, form)).toEqual({ clientId: 'abc', clientSecret: 'xyz' });
  });

  it('refuses both at once, a half, and a malformed header', () => {
    expect(clientCredentialsOf(basic('abc', 'x'), new URLSearchParams({ client_secret: 'y' }))).toBeNull();
    expect(clientCredentialsOf(undefined, new URLSearchParams({ client_id: 'abc' }))).toBeNull();
    expect(clientCredentialsOf('Basic bm9jb2xvbg==', new URLSearchParams())).toBeNull();
    expect(
      clientCredentialsOf(`Basic ${Buffer.from('a:%E0%A4%A').toString('base64')}`, new URLSearchParams()),
    ).toBeNull();
  });
});

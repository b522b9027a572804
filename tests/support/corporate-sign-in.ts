import { createHash, randomBytes } from 'node:crypto';

export interface CorporateSignInOptions {
  /** The user pool's hosted UI (the local Cognito stand-in). */
  readonly hostedUi: string;
  readonly clientId: string;
  /** A callback URL registered on the client (the web app's /login). */
  readonly redirectUri: string;
  readonly providerName: string;
  readonly email: string;
  readonly password: string;
}

export interface CorporateTokens {
  readonly idToken: string;
  readonly accessToken: string;
  readonly refreshToken: string;
}

/** Where a corporate sign-in stopped when it did not reach the app with a code. */
export class CorporateSignInError extends Error {
  constructor(
    message: string,
    readonly lastUrl: string,
    readonly body: string,
  ) {
    super(message);
  }
}

/**
 * What the browser does behind the login's 'cuenta corporativa' button, without a browser: the
 * authorization-code flow with PKCE at the hosted UI, the corporate IdP's sign-in form, the redirects
 * back, and the code exchanged for the pool's tokens.
 */
export async function corporateSignIn(options: CorporateSignInOptions): Promise<CorporateTokens> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const authorize = new URL(`${options.hostedUi}/oauth2/authorize`);
  authorize.search = new URLSearchParams({
    identity_provider: options.providerName,
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();

  const browser = new CookieBrowser();
  let page = await browser.follow(authorize.toString(), options.redirectUri);
  if (page.kind === 'html') {
    const action = /action="([^"]*\/login)"/.exec(page.body)?.[1];
    if (!action)
      throw new CorporateSignInError('El proveedor corporativo no mostró su formulario', page.url, page.body);
    page = await browser.follow(new URL(action, page.url).toString(), options.redirectUri, {
      email: options.email,
      password: options.password,
    });
  }
  if (page.kind === 'html')
    throw new CorporateSignInError('El ingreso corporativo no volvió a la app', page.url, page.body);

  const back = new URL(page.url);
  const code = back.searchParams.get('code');
  if (!code || back.searchParams.get('state') !== state) {
    throw new CorporateSignInError(
      `La app recibió ${back.searchParams.get('error') ?? 'una respuesta sin código'}: ${back.searchParams.get('error_description') ?? ''}`,
      page.url,
      '',
    );
  }
  const response = await fetch(`${options.hostedUi}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: options.clientId,
      code,
      redirect_uri: options.redirectUri,
      code_verifier: verifier,
    }),
  });
  const tokens = (await response.json()) as { id_token?: string; access_token?: string; refresh_token?: string };
  if (!response.ok || !tokens.id_token || !tokens.access_token || !tokens.refresh_token) {
    throw new CorporateSignInError(`/oauth2/token respondió ${response.status}`, page.url, JSON.stringify(tokens));
  }
  return { idToken: tokens.id_token, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
}

type Landing = { kind: 'html'; url: string; body: string } | { kind: 'app'; url: string };

/** Follows redirects by hand, keeping cookies per host, until an HTML page or the app's redirect URI. */
class CookieBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  async follow(start: string, appUrl: string, form?: Record<string, string>): Promise<Landing> {
    let url = start;
    let body: URLSearchParams | undefined = form ? new URLSearchParams(form) : undefined;
    for (let hop = 0; hop < 12; hop++) {
      if (url.startsWith(appUrl)) return { kind: 'app', url };
      const response = await fetch(url, {
        method: body ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: this.cookieHeader(url),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body,
      });
      this.store(url, response.headers.getSetCookie());
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url).toString();
        body = undefined;
        continue;
      }
      return { kind: 'html', url, body: await response.text() };
    }
    throw new CorporateSignInError('Demasiadas redirecciones', url, '');
  }

  private cookieHeader(url: string): string {
    const jar = this.jars.get(new URL(url).host);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }

  private store(url: string, setCookies: string[]): void {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      if (index <= 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(host, jar);
  }
}

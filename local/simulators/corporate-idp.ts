import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import Provider, { type Adapter, type AdapterPayload, type KoaContextWithOIDC } from 'oidc-provider';
import { listen, writeFileAtomic, type RunningService } from '../stand-ins/types.js';

/**
 * The local stage's corporate identity provider: what Entra ID (or the group's IdP) is in AWS.
 * An OpenID Connect provider (oidc-provider) with a directory of demo staff; the Cognito stand-in
 * federates to it exactly as a user pool federates to an OIDC provider (stand-ins/cognito/hosted-ui.ts).
 *
 * - One confidential client: the user pool, redirecting to `<cognito>/oauth2/idpresponse`.
 * - Claims: sub, email, email_verified, given_name, family_name, name and `groups` (the groups claim
 *   the user pool maps to custom:groups; spec §6 reads its first value).
 * - Sign-in and cancel pages of its own, in Spanish; consent is implied for the pool (first party).
 * - Signing key kept under <dataDir>/corporate-idp so that restarts keep the same JWKS; sessions
 *   live in memory (a restart signs everybody out of the IdP, as a new IdP session would).
 */

export interface CorporateUser {
  /** The IdP's stable subject: what the user pool links the federated user by. */
  readonly subject: string;
  readonly email: string;
  readonly password: string;
  readonly givenName: string;
  readonly familyName: string;
  /** In the IdP's order: the first one decides ADMIN (spec §6). */
  readonly groups: readonly string[];
}

/** An account as the seed or a test describes it: federated ones are the IdP's directory. */
export interface AccountWithIdentity {
  readonly username: string;
  readonly password: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly federated?: { readonly subject: string; readonly groups: readonly string[] };
}

/** The IdP's directory: the federated accounts among these, under their subject. */
export function corporateDirectory(accounts: readonly AccountWithIdentity[]): CorporateUser[] {
  return accounts.flatMap((user) =>
    user.federated
      ? [
          {
            subject: user.federated.subject,
            email: user.username,
            password: user.password,
            givenName: user.firstName,
            familyName: user.lastName,
            groups: user.federated.groups,
          },
        ]
      : [],
  );
}

export interface CorporateIdpClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUris: readonly string[];
}

export interface CorporateIdpOptions {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly users: readonly CorporateUser[];
  readonly client: CorporateIdpClient;
}

export interface RunningCorporateIdp extends RunningService {
  /** The issuer (also the discovery base: `<issuer>/.well-known/openid-configuration`). */
  readonly issuer: string;
}

export const CORPORATE_SCOPES = ['openid', 'email', 'profile'] as const;

export async function startCorporateIdp(options: CorporateIdpOptions): Promise<RunningCorporateIdp> {
  const issuer = `http://${options.host}:${options.port}`;
  const directory = new Map(options.users.map((user) => [user.subject, user]));
  const byEmail = new Map(options.users.map((user) => [user.email.toLowerCase(), user]));

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.client.clientId,
        client_secret: options.client.clientSecret,
        redirect_uris: [...options.client.redirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name', 'groups'],
    },
    scopes: [...CORPORATE_SCOPES],
    // Claims also in the ID token (not only at userinfo), as Entra ID does for its optional claims.
    conformIdTokenClaims: false,
    findAccount: (_ctx, subject) => {
      const user = directory.get(subject);
      if (!user) return undefined;
      return {
        accountId: subject,
        claims: () => ({
          sub: subject,
          email: user.email,
          email_verified: true,
          given_name: user.givenName,
          family_name: user.familyName,
          name: `${user.givenName} ${user.familyName}`,
          groups: [...user.groups],
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    // The user pool is a first-party client: no consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(CORPORATE_SCOPES.join(' '));
      await grant.save();
      return grant;
    },
    pkce: { required: () => false },
    // A working day of IdP session, as a corporate IdP keeps it; short-lived codes and tokens.
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 3600,
      IdToken: 3600,
      Interaction: 3600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    jwks: { keys: [await signingKey(options.dataDir)] },
    adapter: MemoryAdapter,
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page(
        'No fue posible iniciar sesión',
        `<p>${escapeHtml(String(out.error_description ?? out.error ?? 'Error desconocido'))}</p>`,
      );
    },
  });
  const oidc = provider.callback();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const interaction = /^\/interaction\/([^/]+)(\/(login|abort))?$/.exec(url.pathname);
    if (!interaction) {
      oidc(req, res);
      return;
    }
    void handleInteraction(provider, byEmail, req, res, interaction[3]).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page('No fue posible iniciar sesión', `<p>${escapeHtml((error as Error).message)}</p>`));
    });
  });
  const running = await listen('corporate-idp', server, options.port, options.host);
  return { ...running, issuer };
}

async function handleInteraction(
  provider: Provider,
  byEmail: ReadonlyMap<string, CorporateUser>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  action: string | undefined,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (action === 'abort' && req.method === 'POST') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'El usuario canceló el inicio de sesión.' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (action === 'login' && req.method === 'POST') {
    const form = new URLSearchParams((await readBody(req)).toString('utf8'));
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const user = byEmail.get(email);
    if (!user || user.password !== form.get('password')) {
      sendHtml(res, 200, loginPage(details.uid, email, 'Usuario o contraseña incorrectos.'));
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: user.subject } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  sendHtml(
    res,
    200,
    loginPage(details.uid, typeof details.params.login_hint === 'string' ? details.params.login_hint : '', null),
  );
}

function loginPage(uid: string, email: string, error: string | null): string {
  const id = encodeURIComponent(uid);
  return page(
    'Cuenta corporativa',
    `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
    <form method="post" action="/interaction/${id}/login" autocomplete="off">
      <label for="email">Correo corporativo</label>
      <input id="email" name="email" type="email" value="${escapeHtml(email)}" required autofocus />
      <label for="password">Contraseña</label>
      <input id="password" name="password" type="password" required />
      <button type="submit">Iniciar sesión</button>
    </form>
    <form method="post" action="/interaction/${id}/abort">
      <button type="submit" class="secondary">Cancelar</button>
    </form>
    <p class="hint">Proveedor de identidad local de desarrollo: las cuentas de demostración están en .local/outputs.json.</p>`,
  );
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${escapeHtml(title)} · Identidad corporativa (local)</title>
<link rel="icon" href="data:," /><!-- no icon: else the browser asks for /favicon.ico, which this stand-in has not -->
<style>
  body { font-family: system-ui, sans-serif; background: #f4f4f4; margin: 0; display: grid; place-items: center; min-height: 100vh; }
  main { background: #fff; padding: 2rem; border-radius: 8px; width: min(22rem, 90vw); box-shadow: 0 1px 4px rgba(0,0,0,.15); }
  h1 { font-size: 1.25rem; margin-top: 0; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: .5rem; margin-top: .25rem; font-size: 1rem; }
  button { margin-top: 1.25rem; width: 100%; padding: .6rem; font-size: 1rem; background: #0f4c81; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
  button.secondary { background: transparent; color: #0f4c81; margin-top: .5rem; }
  .error { color: #b00020; }
  .hint { color: #555; font-size: .8rem; }
</style>
</head>
<body><main><h1>${escapeHtml(title)}</h1>${content}</main></body>
</html>`;
}

function sendHtml(res: http.ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The RS256 signing key, created once per data directory. */
async function signingKey(dataDir: string): Promise<Record<string, unknown>> {
  const file = path.join(dataDir, 'corporate-idp', 'signing-key.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
  // Whole or not at all: a start killed here must not leave a key file the next start cannot read.
  await writeFileAtomic(file, `${JSON.stringify(jwk)}\n`, 0o600);
  return jwk;
}

/** oidc-provider's storage: in memory, with expiry. */
class MemoryAdapter implements Adapter {
  private static readonly items = new Map<string, { payload: AdapterPayload; expiresAt: number | null }>();

  constructor(private readonly model: string) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  private live(key: string): AdapterPayload | undefined {
    const item = MemoryAdapter.items.get(key);
    if (!item) return undefined;
    if (item.expiresAt !== null && item.expiresAt <= Date.now()) {
      MemoryAdapter.items.delete(key);
      return undefined;
    }
    return item.payload;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    MemoryAdapter.items.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : null });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.live(this.key(id));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere((payload) => payload.userCode === userCode);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere((payload) => payload.uid === uid);
  }

  async consume(id: string): Promise<void> {
    const payload = this.live(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    MemoryAdapter.items.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, item] of MemoryAdapter.items) {
      if (item.payload.grantId === grantId) MemoryAdapter.items.delete(key);
    }
  }

  private findWhere(match: (payload: AdapterPayload) => boolean): AdapterPayload | undefined {
    const prefix = `${this.model}:`;
    for (const [key, item] of MemoryAdapter.items) {
      if (key.startsWith(prefix) && match(item.payload)) return this.live(key);
    }
    return undefined;
  }
}

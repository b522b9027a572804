import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { HEADERS } from '@portal/shared';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { BENCH_CLIENT } from './api-seed.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';
import { corporateSignIn } from '../../tests/support/corporate-sign-in.js';

/** The demo world's manager (staff of the group's first two companies), whom the API suites read as. */
const MANAGER = 'gestor@grupoandino.pe';
/** The demo supplier's user, who uploads the suites' documents. */
const SUPPLIER = 'proveedor@demo.pe';

function demoAccount(outputs: LocalOutputs, username: string) {
  const account = outputs.demoUsers.find((user) => user.username === username);
  if (!account) throw new Error(`The stage has no demo user ${username}`);
  return account;
}

/** The manager's id token on `outputs`' stage, signed in as staff sign in: through the corporate IdP. */
export async function managerToken(outputs: LocalOutputs): Promise<string> {
  const account = demoAccount(outputs, MANAGER);
  const tokens = await corporateSignIn({
    hostedUi: outputs.cognitoEndpoint,
    clientId: outputs.userPoolClientId,
    redirectUri: `${outputs.webUrl}/login`,
    providerName: outputs.corporateIdp.providerName,
    email: account.username,
    password: account.password,
  });
  return tokens.idToken;
}

/** Where and as whom the API suites call a stage: its gateway's origin and path prefix, the manager at BENCH_CLIENT. */
export interface ManagerApi {
  readonly origin: string;
  readonly prefix: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The manager's calls to `outputs`' stage (signed in once). */
export async function managerApi(outputs: LocalOutputs): Promise<ManagerApi> {
  const url = new URL(outputs.apiUrl);
  return {
    origin: url.origin,
    prefix: url.pathname.replace(/\/$/, ''),
    headers: { authorization: `Bearer ${await managerToken(outputs)}`, [HEADERS.companyId]: BENCH_CLIENT.taxId },
  };
}

/** The demo supplier's id token on `outputs`' stage, signed in as suppliers sign in: user and password. */
export async function supplierToken(outputs: LocalOutputs): Promise<string> {
  const account = demoAccount(outputs, SUPPLIER);
  const cognito = new CognitoIdentityProviderClient({
    region: outputs.region,
    endpoint: outputs.cognitoEndpoint,
    credentials: LOCAL_CREDENTIALS,
  });
  try {
    const result = await cognito.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: outputs.userPoolClientId,
        AuthParameters: { USERNAME: account.username, PASSWORD: account.password },
      }),
    );
    return result.AuthenticationResult!.IdToken!;
  } finally {
    cognito.destroy();
  }
}

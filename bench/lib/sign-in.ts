import type { LocalOutputs } from '../../infra/local/outputs.js';
import { corporateSignIn } from '../../tests/support/corporate-sign-in.js';

/** The demo world's manager (staff of the group's first two companies), whom the API suites read as. */
const MANAGER = 'gestor@grupoandino.pe';

/** The manager's id token on `outputs`' stage, signed in as staff sign in: through the corporate IdP. */
export async function managerToken(outputs: LocalOutputs): Promise<string> {
  const account = outputs.demoUsers.find((user) => user.username === MANAGER);
  if (!account) throw new Error(`The stage has no demo user ${MANAGER}`);
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

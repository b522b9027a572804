import { LEVEL_LABELS, type Level } from '@portal/shared';

export interface DemoAccount {
  readonly username: string;
  readonly password: string;
  readonly role: Level;
  /** 'corporate': through the login's corporate-account button (the local IdP), never a pool password. */
  readonly signIn: 'password' | 'corporate';
  /** Comma-separated RUC list, or null for the accounts that show the forbidden pages. */
  readonly taxId: string | null;
  readonly description: string;
}

/** An account as outputs.json lists it: what signing in needs and says, without its identity provider's details. */
export function demoAccountOf({ username, password, role, signIn, taxId, description }: DemoAccount): DemoAccount {
  return { username, password, role, signIn, taxId, description };
}

const SIGN_IN_LABELS: Record<DemoAccount['signIn'], string> = {
  password: 'correo y contraseña',
  corporate: 'cuenta corporativa',
};

/**
 * The demo accounts as `npm start` prints them, saying how each signs in: suppliers with e-mail and password
 * in the portal's form; staff with 'Ingresar con cuenta corporativa', typing their password at the local
 * corporate identity provider (they have no portal password, and the form sends them to the button).
 */
export function demoAccountsListing(accounts: readonly DemoAccount[]): string {
  const width = Math.max(...accounts.map((account) => account.username.length)) + 2;
  const rows = accounts.map(
    (account) =>
      `  ${account.username.padEnd(width)}${account.password}  ${SIGN_IN_LABELS[account.signIn].padEnd(21)}${LEVEL_LABELS[account.role].padEnd(15)}${account.description}`,
  );
  return [
    'Cuentas de demostración:',
    '  correo y contraseña: en el formulario de ingreso del portal.',
    '  cuenta corporativa:  botón «Ingresar con cuenta corporativa»; la contraseña se escribe en la página del',
    '                       proveedor corporativo local (el personal no tiene contraseña del portal).',
    '',
    ...rows,
  ].join('\n');
}

/** What `npm start` writes to .local/outputs.json once the stage is ready. */
export interface LocalOutputs {
  readonly stage: string;
  /** Where this stage keeps its data and logs (logs/cognito.log holds the codes it "e-mails"). */
  readonly dataDir: string;
  readonly webUrl: string;
  readonly apiUrl: string;
  readonly region: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  readonly cognitoEndpoint: string;
  readonly issuer: string;
  /** The local corporate identity provider (OIDC) the 'cuenta corporativa' button federates to. */
  readonly corporateIdp: { readonly issuer: string; readonly providerName: string };
  readonly endpoints: {
    readonly dynamodb: string;
    readonly s3: string;
    readonly sqs: string;
    readonly sunat: string;
    readonly sap: string;
    readonly mailbox: string;
    /** The SMTP server that receives invoices by e-mail (`smtp://127.0.0.1:<port>`). */
    readonly smtp: string;
    /** The OTLP receiver: GET /api/traces/<traceId> and /api/spans answer what the handlers traced. */
    readonly otlp: string;
  };
  readonly tableName: string;
  readonly documentsBucket: string;
  /** The intake addresses' domain: facturas+<RUC>@<this> is each company's (docs/intake-channels.md). */
  readonly intakeMailDomain: string;
  readonly queues: Record<string, { readonly url: string; readonly dlqUrl: string }>;
  /** The demo world's accounts (a test tenant's are seed-data.ts tenantParties(n).users). */
  readonly demoUsers: readonly DemoAccount[];
  /** How many test tenants the stage seeded beside the demo world (LOCAL_TEST_TENANTS): worlds 1 … tenants. */
  readonly tenants: number;
}

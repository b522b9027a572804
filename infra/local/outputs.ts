import type { Level } from '@portal/shared';

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
    /** The OTLP receiver: GET /api/traces/<traceId> and /api/spans answer what the handlers traced. */
    readonly otlp: string;
  };
  readonly tableName: string;
  readonly documentsBucket: string;
  readonly queues: Record<string, { readonly url: string; readonly dlqUrl: string }>;
  readonly demoUsers: readonly DemoAccount[];
}

import { callAws, environmentCredentials, lambdaEnvironment, type AwsService } from './aws-rest.js';

/**
 * SES v2 SendEmail, as a signed REST call (aws-rest.ts) instead of the SES client (60 KB of schemas for one
 * operation). On the local stage AWS_ENDPOINT_URL_SESV2 points it at the local mailbox; the code does not
 * know the difference.
 */
export interface Email {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
}

export interface SesOptions {
  readonly service: AwsService;
  readonly sender: string;
  readonly configurationSet?: string;
}

/** SES v2 from the functions' environment (read once per cold start). */
export function sesOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SesOptions {
  const { region } = lambdaEnvironment(env);
  return {
    service: {
      signingName: 'ses',
      region,
      credentials: environmentCredentials,
      endpoint: env.AWS_ENDPOINT_URL_SESV2 || env.AWS_ENDPOINT_URL || `https://email.${region}.amazonaws.com`,
    },
    sender: env.EMAIL_SENDER ?? 'Portal de Proveedores <no-responder@proveedores.example.pe>',
    configurationSet: env.EMAIL_CONFIGURATION_SET || undefined,
  };
}

export function makeSesMailer(options: SesOptions): Mailer {
  return {
    async send(email) {
      await callAws(options.service, {
        operation: 'SendEmail',
        method: 'POST',
        path: '/v2/email/outbound-emails',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          FromEmailAddress: options.sender,
          Destination: { ToAddresses: [email.to] },
          ...(options.configurationSet ? { ConfigurationSetName: options.configurationSet } : {}),
          Content: {
            Simple: {
              Subject: { Data: email.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
            },
          },
        }),
      });
    },
  };
}

let environmentMailer: Mailer | null = null;

/** The mailer of the functions, configured from the environment at its first message. */
export const sesMailer: Mailer = {
  send: (email) => (environmentMailer ??= makeSesMailer(sesOptionsFromEnv())).send(email),
};

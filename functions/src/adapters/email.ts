import { SESv2Client, SendEmailCommand, type SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import { RUNTIME_ENV } from '@portal/shared';
import { telemetry } from '../observability/telemetry.js';

/**
 * SES v2 SendEmail through the SES client (each call a span of the function's trace). On the local stage
 * AWS_ENDPOINT_URL_SESV2 points the SDK at the local mailbox; the code does not know the difference.
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
  /** The client's configuration; the SDK's defaults from the environment when absent. */
  readonly client?: SESv2ClientConfig;
  readonly sender: string;
  readonly configurationSet?: string;
}

/** SES v2 from the functions' environment (read once per cold start). */
export function sesOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): SesOptions {
  return {
    sender: env[RUNTIME_ENV.emailSender] ?? 'Portal de Proveedores <no-responder@proveedores.example.pe>',
    configurationSet: env[RUNTIME_ENV.emailConfigurationSet] || undefined,
  };
}

export function makeSesMailer(options: SesOptions): Mailer {
  const ses = telemetry.instrumentClient(new SESv2Client(options.client ?? {}));
  return {
    async send(email) {
      await ses.send(
        new SendEmailCommand({
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
      );
    },
  };
}

let environmentMailer: Mailer | null = null;

/** The mailer of the functions, configured from the environment at its first message. */
export const sesMailer: Mailer = {
  send: (email) => (environmentMailer ??= makeSesMailer(sesOptionsFromEnv())).send(email),
};

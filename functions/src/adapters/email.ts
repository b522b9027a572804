import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { tracer } from '../http/tracer.js';

/**
 * SES v2, built once per cold start. On the local stage AWS_ENDPOINT_URL_SESV2 points it at the
 * local mailbox; the code does not know the difference.
 */
const ses = tracer.captureAWSv3Client(new SESv2Client({}));
const SENDER = process.env.EMAIL_SENDER ?? 'Portal de Proveedores <no-responder@proveedores.example.pe>';
const CONFIGURATION_SET = process.env.EMAIL_CONFIGURATION_SET || undefined;

export interface Email {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
}

export const sesMailer: Mailer = {
  async send(email) {
    await ses.send(
      new SendEmailCommand({
        FromEmailAddress: SENDER,
        Destination: { ToAddresses: [email.to] },
        ConfigurationSetName: CONFIGURATION_SET,
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

import { randomUUID } from 'node:crypto';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { INBOUND_MAIL, companyOfIntakeAddress, type InboundMailMessage } from '@portal/shared';
import { tableResolver, verifyWithMailauth, type DnsTable } from '../../functions/src/mail/verify-with-mailauth.js';
import type { RunningService } from './types.js';

/** The local stage's placeholder under inbound-mail/ (see below); never a message id (those have no dot first). */
const KEEP_OBJECT = '.stage-keep';

/** An error SMTP answers with its own code (smtp-server reads `responseCode`). */
const smtpError = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

/**
 * The local stage's stand-in for SES receiving (docs/intake-channels.md "Correo"): a real SMTP server on
 * 127.0.0.1 that any mail client or `swaks` can send to. Like SES's receipt rule it takes mail only for the intake
 * addresses (`facturas+<RUC>@<intake domain>`), checks SPF, DKIM and DMARC (mailauth, answering DNS from `dns`:
 * nothing asks the Internet), writes the raw message under inbound-mail/ of the inbound-mail bucket and sends the
 * inboundMail queue its message with the verdicts. The worker is the one that runs in AWS.
 */
export async function startSmtpServer(options: {
  readonly port: number;
  readonly host: string;
  readonly intakeDomain: string;
  readonly dns: DnsTable;
  readonly s3: S3Client;
  readonly bucket: string;
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly log: (line: string) => void;
}): Promise<RunningService> {
  const resolver = tableResolver(options.dns);
  // s3rver removes a folder once its last object is deleted, and a write into that folder at the same moment then
  // fails outside any handler (its process dies). The worker deletes each message as the next arrives: an object that
  // nothing reads or deletes keeps inbound-mail/ from ever being empty. AWS has no folders and needs none.
  // An empty body gets no Content-Length from the SDK, which then warns of a stream of unknown length: say it.
  await options.s3.send(
    new PutObjectCommand({
      Bucket: options.bucket,
      Key: `${INBOUND_MAIL.prefix}${KEEP_OBJECT}`,
      Body: '',
      ContentLength: 0,
    }),
  );

  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    if (stream.sizeExceeded) throw smtpError(552, 'Message exceeds the fixed maximum message size');
    const raw = Buffer.concat(chunks);
    const envelope = session.envelope;
    const mailFrom = envelope.mailFrom ? envelope.mailFrom.address : '';
    const verdicts = await verifyWithMailauth(
      raw,
      { remoteAddress: session.remoteAddress, helo: session.hostNameAppearsAs, mailFrom },
      resolver,
      options.intakeDomain,
    );
    // SES's message ids are [a-z0-9]; ours are time-ordered so that a developer's listing reads in order.
    const messageId = `${Date.now().toString(36)}-${randomUUID().replaceAll('-', '')}`;
    const key = `${INBOUND_MAIL.prefix}${messageId}`;
    await options.s3.send(
      new PutObjectCommand({ Bucket: options.bucket, Key: key, Body: raw, ContentType: 'message/rfc822' }),
    );
    const message: InboundMailMessage = {
      messageId,
      bucket: options.bucket,
      key,
      recipients: envelope.rcptTo.map((recipient) => recipient.address),
      envelopeSender: mailFrom,
      verdicts,
    };
    await options.sqs.send(
      new SendMessageCommand({ QueueUrl: options.queueUrl, MessageBody: JSON.stringify(message) }),
    );
    options.log(
      `[smtp] ${messageId} de ${mailFrom || '<>'} para ${message.recipients.join(', ')}: SPF ${verdicts.spf}, ` +
        `DKIM ${verdicts.dkim}, dominio autenticado ${verdicts.authenticatedDomain ?? 'ninguno'}`,
    );
    return messageId;
  }

  const server = new SMTPServer({
    name: options.intakeDomain,
    banner: 'Portal de Proveedores: recepción local de comprobantes por correo',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    // No reverse lookup of the client: nothing leaves this machine.
    disableReverseLookup: true,
    size: INBOUND_MAIL.maxMessageBytes,
    logger: false,
    onRcptTo(address, _session, callback) {
      // As SES's receipt rule: only the intake addresses of a company are taken.
      if (companyOfIntakeAddress(address.address, options.intakeDomain)) return callback();
      callback(smtpError(550, `No such mailbox here: write to facturas+<RUC>@${options.intakeDomain}`));
    },
    onData(stream, session, callback) {
      receive(stream, session).then(
        (messageId) => callback(null, `Message queued as ${messageId}`),
        (error: Error & { responseCode?: number }) => {
          if (!error.responseCode) options.log(`[smtp] error: ${error.message}`);
          callback(error.responseCode ? error : smtpError(451, 'Temporary failure, try again later'));
        },
      );
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error: Error) => options.log(`[smtp] ${error.message}`));
  let stopped = false;
  return {
    name: 'smtp',
    endpoint: `smtp://${options.host}:${options.port}`,
    stop: () =>
      stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            stopped = true;
            server.close(() => resolve());
          }),
  };
}

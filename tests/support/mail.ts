import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { BUCKETS, INBOUND_MAIL, intakeAddress, localName } from '@portal/shared';
import { LOCAL_DKIM } from '../../local/simulators/mail-dns.js';
import { mailbox } from './fixtures.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { stage } from './stage.js';
import { until } from './until.js';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** A key no DNS record publishes: a signature made with it fails DKIM. */
export const FOREIGN_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

export interface OutgoingMail {
  readonly from: string;
  /** The envelope's MAIL FROM (the From address when absent). */
  readonly envelopeFrom?: string;
  /** A company's RUC: its intake address on the stage. */
  readonly toCompany: string;
  readonly subject: string;
  readonly attachments: readonly { filename: string; content: Buffer; contentType?: string }[];
  /** Signs with the stage's test key for the From domain (default), with another key, or not at all. */
  readonly dkim?: 'stage' | 'foreign' | 'none';
}

/**
 * Sends an e-mail over real SMTP to the stage's server (local/stand-ins/smtp.ts), as a supplier's mail server
 * would, DKIM-signed with the key the stage's DNS publishes for the From domain; answers the id the server gave it.
 */
export async function sendMail(
  mail: OutgoingMail,
  to: Pick<LocalOutputs, 'endpoints' | 'intakeMailDomain'> = stage(),
): Promise<{ messageId: string }> {
  const url = new URL(to.endpoints.smtp);
  const domain = mail.from.split('@')[1]!;
  const dkim = mail.dkim ?? 'stage';
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port),
    secure: false,
    ignoreTLS: true,
    name: `mail.${domain}`,
    ...(dkim === 'none'
      ? {}
      : {
          dkim: {
            domainName: domain,
            keySelector: LOCAL_DKIM.selector,
            privateKey: dkim === 'stage' ? LOCAL_DKIM.privateKey : FOREIGN_KEY,
          },
        }),
  });
  try {
    const info = await transport.sendMail({
      from: mail.from,
      to: intakeAddress(to.intakeMailDomain, mail.toCompany),
      envelope: { from: mail.envelopeFrom ?? mail.from, to: [intakeAddress(to.intakeMailDomain, mail.toCompany)] },
      subject: mail.subject,
      text: 'Adjunto el comprobante.',
      attachments: [...mail.attachments],
    });
    const messageId = /queued as (\S+)/.exec(info.response)?.[1];
    if (!messageId) throw new Error(`unexpected SMTP answer: ${info.response}`);
    return { messageId };
  } finally {
    transport.close();
  }
}

/** The inbound-mail bucket of the stage and the key of a received message there. */
export function inboundObject(messageId: string): { Bucket: string; Key: string } {
  return { Bucket: localName(stage().stage, BUCKETS.inboundMail.id), Key: `${INBOUND_MAIL.prefix}${messageId}` };
}

/** Whether the raw message is still stored (the worker deletes it once processed). */
export async function rawMessageStored(messageId: string): Promise<boolean> {
  const { endpoints, region } = stage();
  const s3 = new S3Client({ region, endpoint: endpoints.s3, credentials, forcePathStyle: true });
  try {
    await s3.send(new HeadObjectCommand(inboundObject(messageId)));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

/**
 * Writes a message's raw copy into the inbound-mail bucket as the SMTP server does, under `messageId`: how a worker
 * that stopped before its end leaves it (the copy is deleted only once the message's outcome is known).
 */
export async function storeRawMessage(messageId: string, mail: OutgoingMail): Promise<void> {
  const { endpoints, region } = stage();
  const raw = await new MailComposer({
    from: mail.from,
    to: intakeAddress(stage().intakeMailDomain, mail.toCompany),
    subject: mail.subject,
    text: 'Adjunto el comprobante.',
    attachments: [...mail.attachments],
  })
    .compile()
    .build();
  const s3 = new S3Client({ region, endpoint: endpoints.s3, credentials, forcePathStyle: true });
  await s3.send(new PutObjectCommand({ ...inboundObject(messageId), Body: raw, ContentType: 'message/rfc822' }));
}

/** Waits until the worker has processed the message (its raw copy deleted). */
export async function processed(messageId: string, timeoutMs = 30_000): Promise<void> {
  await until(async () => !(await rawMessageStored(messageId)), {
    timeout: timeoutMs,
    interval: 200,
    message: `message ${messageId} to be processed`,
  });
}

/** The answers the portal sent to `address` (the local mailbox), oldest first. */
export async function answersTo(address: string): Promise<{ subject: string; text: string }[]> {
  return (await mailbox()).filter((mail) => mail.to.includes(address)).reverse();
}

/** A fresh address at the tests' mail domain (its SPF and DKIM records are the stage's). */
export const freshSender = () => `${randomUUID().slice(0, 8)}@pruebas.pe`;

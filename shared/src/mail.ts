import * as z from 'zod/mini';

/**
 * Invoices by e-mail (docs/adr/0035-mail-intake.md): each company of the group has an intake address,
 * `facturas+<RUC>@<intake domain>`, the domain configured per stage (INTAKE_MAIL_DOMAIN).
 */
export const INBOUND_MAIL = {
  /** Where a received e-mail's raw MIME is written (SES's S3 action, the local SMTP server). */
  prefix: 'inbound-mail/',
  /** The local part of every intake address, before `+<RUC>`. */
  localPart: 'facturas',
  /** A message larger than this is refused (SES itself receives up to 40 MB). */
  maxMessageBytes: 25 * 1024 * 1024,
  /** Attachments of one message. */
  maxAttachments: 30,
  /** Answers to a sender whose message was not taken (unknown, without XML, hostile files) in one hour. */
  maxRefusalAnswersPerHour: 3,
  /** Days a processed message's record is kept: a redelivery within them neither registers nor answers again. */
  processedRecordDays: 14,
} as const;

/** The intake address of a company of the group. */
export function intakeAddress(domain: string, companyTaxId: string): string {
  return `${INBOUND_MAIL.localPart}+${companyTaxId}@${domain}`;
}

/** The company an intake address names, or null when the address is not one of the domain's intake addresses. */
export function companyOfIntakeAddress(address: string, domain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  const match = /^facturas\+(\d{11})$/i.exec(address.slice(0, at));
  return match ? match[1]! : null;
}

/** SES's verdict values (the local verifier answers the same). */
export const MailVerdict = z.enum(['PASS', 'FAIL', 'GRAY', 'PROCESSING_FAILED', 'DISABLED']);
export type MailVerdict = z.infer<typeof MailVerdict>;

/**
 * The queue message of one received e-mail: where its raw MIME is, to whom it was delivered (the envelope's
 * recipients that matched an intake address, not the To header), and how its sender authenticated, as the receiving
 * side judged it (SES's receipt in AWS, mailauth on the local stage).
 */
export const InboundMailMessage = z.object({
  /** SES's message id (the local SMTP server's own): the key of the processed-message record. */
  messageId: z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[A-Za-z0-9._-]+$/)),
  bucket: z.string().check(z.minLength(1)),
  key: z.string().check(z.startsWith(INBOUND_MAIL.prefix)),
  recipients: z.array(z.string().check(z.maxLength(320))).check(z.minLength(1), z.maxLength(50)),
  /**
   * The envelope's sender (SMTP MAIL FROM, SES's `mail.source`): '' for the null reverse path of a bounce; absent in a
   * message queued before it was recorded. The intake takes a message whose envelope sender is not its From only when
   * both are addresses of the same supplier (docs/adr/0035-mail-intake.md).
   */
  envelopeSender: z.optional(z.string().check(z.maxLength(320))),
  verdicts: z.object({
    spf: MailVerdict,
    dkim: MailVerdict,
    dmarc: MailVerdict,
    /**
     * The From header's domain when SPF or DKIM passed for it (aligned: the envelope sender's or a passing
     * signature's domain is the From domain or under it), else null: only such a sender is answered.
     */
    authenticatedDomain: z.nullable(z.string()),
  }),
});
export type InboundMailMessage = z.infer<typeof InboundMailMessage>;

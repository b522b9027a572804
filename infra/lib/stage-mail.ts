import * as z from 'zod';

/** A DNS host name: lowercase labels of letters, digits and inner hyphens, at least two of them. */
export const HOST_NAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/**
 * Who the portal's e-mail comes from. SES sends only from a verified identity: the stage verifies the address's
 * domain with Easy DKIM (three CNAME records). With a Route 53 hosted zone of that domain in the account, CDK writes
 * the records; otherwise the operator adds them to the domain's DNS (docs/deploying.md, "E-mail (SES)").
 */
export const EmailSender = z
  .object({
    /** The From address, e.g. no-responder@proveedores.grupo.pe; its domain becomes the SES identity. */
    address: z.email({ error: 'emailSender.address: the From e-mail address, e.g. no-responder@proveedores.grupo.pe' }),
    /** The name recipients see beside the address. */
    name: z
      .string()
      .regex(/^[^"<>\r\n]{1,64}$/, 'emailSender.name: 1-64 characters, no quotes, angle brackets or line breaks')
      .default('Portal de Proveedores'),
    /** Public hosted zone (Route 53, same account) of the address's domain, where CDK writes the DKIM records. */
    hostedZoneId: z
      .string()
      .regex(/^Z[A-Z0-9]{1,31}$/, 'emailSender.hostedZoneId: a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ')
      .optional(),
  })
  .strict();
export type EmailSender = z.infer<typeof EmailSender>;

/**
 * The regions where SES receives e-mail (AWS General Reference, "Amazon SES endpoints and quotas", e-mail receiving
 * endpoints): São Paulo, the prod stage's, is not one. Check the reference before adding one.
 */
export const SES_RECEIVING_REGIONS: readonly string[] = ['us-east-1', 'us-west-2', 'eu-west-1'];

/**
 * The group's intake addresses: `facturas+<RUC>@<domain>`. The domain's MX record points at SES's
 * inbound endpoint of the stage's region (docs/deploying.md, "Receiving invoices by e-mail").
 */
export const IntakeMail = z
  .object({
    domain: z.string().regex(HOST_NAME, 'intakeMail.domain: a DNS name such as recepcion.proveedores.grupo.pe'),
  })
  .strict();
export type IntakeMail = z.infer<typeof IntakeMail>;

/** The domain SES verifies for an e-mail address. */
export function emailDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** The From header the functions' mailer sends: `Name <address>`. */
export function fromHeader(sender: Pick<EmailSender, 'address' | 'name'>): string {
  return `${sender.name} <${sender.address}>`;
}

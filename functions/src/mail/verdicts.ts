import type { InboundMailMessage, MailVerdict } from '@portal/shared';

export type MailVerdicts = InboundMailMessage['verdicts'];

/** The domain of an address, lower case; null for something that is not one address. */
export function domainOf(address: string | null | undefined): string | null {
  if (!address) return null;
  const at = address.lastIndexOf('@');
  const domain =
    at > 0
      ? address
          .slice(at + 1)
          .trim()
          .toLowerCase()
      : '';
  return /^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain) ? domain : null;
}

/**
 * Relaxed alignment (RFC 7489 §3.1, without the public-suffix list): the authenticated domain is the From domain,
 * or one is a subdomain of the other.
 */
export function aligned(authenticated: string | null | undefined, fromDomain: string): boolean {
  const domain = authenticated?.trim().toLowerCase().replace(/\.$/, '');
  if (!domain) return false;
  return domain === fromDomain || domain.endsWith(`.${fromDomain}`) || fromDomain.endsWith(`.${domain}`);
}

/** What SES's receipt (the Lambda action's event) says of one message, the part this intake reads. */
export interface SesReceipt {
  readonly spfVerdict?: { readonly status?: string };
  readonly dkimVerdict?: { readonly status?: string };
  readonly dmarcVerdict?: { readonly status?: string };
}

export interface SesMail {
  /** The envelope's MAIL FROM. */
  readonly source?: string;
  readonly commonHeaders?: { readonly from?: readonly string[] };
  readonly headers?: readonly { readonly name: string; readonly value: string }[];
}

const verdict = (status: string | undefined): MailVerdict =>
  status === 'PASS' || status === 'FAIL' || status === 'GRAY' || status === 'PROCESSING_FAILED' ? status : 'DISABLED';

/** The address inside a From header value (`Name <a@b.pe>` or `a@b.pe`); null unless there is exactly one. */
export function addressOfHeader(value: string | undefined): string | null {
  if (!value) return null;
  const angle = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value.trim());
  const address = angle ? angle[1]! : value.trim();
  return /^[^\s@<>,;]+@[^\s@<>,;]+$/.test(address) ? address : null;
}

/**
 * The verdicts of a message SES received (docs/adr/0035-mail-intake.md): SES's DKIM verdict does not say which
 * signature passed, so it counts for the From domain only when every DKIM-Signature SES saw is the From domain's
 * (d= aligned); SES's SPF verdict is of the envelope's MAIL FROM, so it counts when that address is aligned;
 * DMARC's pass is alignment already.
 */
export function verdictsFromSes(receipt: SesReceipt, mail: SesMail): MailVerdicts {
  const spf = verdict(receipt.spfVerdict?.status);
  const dkim = verdict(receipt.dkimVerdict?.status);
  const dmarc = verdict(receipt.dmarcVerdict?.status);
  const fromHeaders = mail.commonHeaders?.from ?? [];
  const from = fromHeaders.length === 1 ? addressOfHeader(fromHeaders[0]) : null;
  const fromDomain = domainOf(from);
  if (!fromDomain) return { spf, dkim, dmarc, authenticatedDomain: null };
  const signingDomains = (mail.headers ?? [])
    .filter((header) => header.name.toLowerCase() === 'dkim-signature')
    .map((header) => /(?:^|;)\s*d\s*=\s*([^;\s]+)/i.exec(header.value)?.[1] ?? null);
  const dkimAligned =
    dkim === 'PASS' && signingDomains.length > 0 && signingDomains.every((domain) => aligned(domain, fromDomain));
  const spfAligned = spf === 'PASS' && aligned(domainOf(mail.source), fromDomain);
  const authenticated = dmarc === 'PASS' || dkimAligned || spfAligned;
  return { spf, dkim, dmarc, authenticatedDomain: authenticated ? fromDomain : null };
}

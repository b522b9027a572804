import { authenticate, type DNSResolver } from 'mailauth';
import type { MailVerdict } from '@portal/shared';
import { aligned, domainOf, type MailVerdicts } from './verdicts.js';

export type { DNSResolver };

/** The SMTP session's facts the checks need: the client's address, its EHLO name and the envelope's MAIL FROM. */
export interface SmtpEnvelope {
  readonly remoteAddress: string;
  readonly helo: string;
  readonly mailFrom: string;
}

const verdictOf = (result: string | undefined): MailVerdict => {
  switch (result) {
    case 'pass':
      return 'PASS';
    case 'fail':
    case 'softfail':
    case 'policy':
      return 'FAIL';
    case 'temperror':
    case 'permerror':
      return 'PROCESSING_FAILED';
    default:
      return 'GRAY';
  }
};

/**
 * The local stage's receiving side (SES's part in AWS): real SPF, DKIM and DMARC checks by mailauth, with the DNS
 * answers of `resolver` (the stage serves its own records; nothing is asked of the Internet). Answers the verdicts in
 * SES's terms, the From domain authenticated when a passing SPF or DKIM domain is aligned with it.
 */
export async function verifyWithMailauth(
  raw: Buffer,
  envelope: SmtpEnvelope,
  resolver: DNSResolver,
  mta: string,
): Promise<MailVerdicts> {
  const result = await authenticate(raw, {
    ip: envelope.remoteAddress,
    helo: envelope.helo,
    sender: envelope.mailFrom,
    mta,
    resolver,
    disableArc: true,
    disableBimi: true,
  });
  const froms = result.dkim.headerFrom ?? [];
  // mailauth names the From header's domain (an address in some versions): read either.
  const from = froms.length === 1 ? froms[0]! : null;
  const fromDomain = from === null ? null : domainOf(from.includes('@') ? from : `postmaster@${from}`);
  const spfResult = result.spf ? result.spf.status.result : undefined;
  const dkimResults = result.dkim.results ?? [];
  const spf = verdictOf(spfResult);
  const dkim = dkimResults.some((signature) => signature.status.result === 'pass')
    ? 'PASS'
    : dkimResults.length > 0
      ? verdictOf(dkimResults[0]!.status.result)
      : 'GRAY';
  const dmarc = result.dmarc ? verdictOf(result.dmarc.status.result) : 'GRAY';
  if (!fromDomain) return { spf, dkim, dmarc, authenticatedDomain: null };
  const spfAligned = spf === 'PASS' && result.spf !== false && aligned(result.spf.domain, fromDomain);
  const dkimAligned = dkimResults.some(
    (signature) => signature.status.result === 'pass' && aligned(signature.signingDomain, fromDomain),
  );
  return { spf, dkim, dmarc, authenticatedDomain: spfAligned || dkimAligned ? fromDomain : null };
}

/** DNS records by name and type, as the local stage serves them (TXT records as their strings). */
export type DnsTable = Readonly<Record<string, Readonly<Partial<Record<'TXT' | 'A' | 'MX', readonly string[]>>>>>;

/**
 * A resolver that answers only from `table` (nothing goes to the network): what is not there is ENOTFOUND, as a
 * name without records is for dns.promises.resolve.
 */
export function tableResolver(table: DnsTable): DNSResolver {
  return async (name, rrtype) => {
    const records = table[name.toLowerCase().replace(/\.$/, '')]?.[rrtype as 'TXT' | 'A' | 'MX'];
    if (!records || records.length === 0) {
      throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND', hostname: name });
    }
    return rrtype === 'TXT' ? records.map((record) => [record]) : [...records];
  };
}

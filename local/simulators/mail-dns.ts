import type { DnsTable } from '../../functions/src/mail/verify-with-mailauth.js';

/**
 * What the local stage's DNS says of the demo suppliers' mail domains (docs/intake-channels.md "Correo"):
 * the SMTP server's SPF, DKIM and DMARC checks (mailauth) ask only this table, never the Internet. Each domain lets
 * 127.0.0.1 send (SPF) and publishes the DKIM key of LOCAL_DKIM below.
 */
export const LOCAL_DKIM = {
  selector: 'portal-local',
  /**
   * A key made for the local stage and its tests only (it signs nothing anywhere else; no real domain publishes it).
   * The tests sign their mail with it; a developer can too (`swaks`'s DKIM plugin, or nodemailer's `dkim` option).
   */
  privateKey: `-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC/8whLUh6a69qk
2D3WSud0QMAq50aL6YrMP5deN/jldzNZCpay9kxJa894wOc9qB5h3Y0U0kLFfBN2
lyVJ1zjYcFKkYBqPESKA4P0qu4roizpEJWHP5/ObfkKP++BBl/NpwgKputRCEkgP
DP1jDZxO/tWwTYu/0o5HPmMO6WKovjlJcnkSjwvpLDIaGg9eWxMIlWP5K8bF77IX
QFBQbErNRNIEuSGM9FaE9hTN6zbjI3VN+qE43ckoe0fTKonhcyh4Y8wIDbz3VY6r
W1A1lfc5oCv3iUIAsZXP6U0fzpOrvJaRvT8BWLJOCOEN4sTZoczUCLKfT47xnecM
cyMBPY8pAgMBAAECggEAI5TVCkVQOA6Vaq5NFC6xZfrkxG83xBLIMGFvWT9N65dj
lNNiKQ2ACbIq9OrpUqQZ8bFEiEILr5j28KpG9r+nIXP81cycz71w5GwQcf3u23mH
lP9K+OO55C6M/yzFHtOggw+8N6NS2maSJfwV8mkg+wHBMdvGFopc5nb5nNeFetrp
xUx/Gfds7P5q9f1FRfG1ihT0uDJs5DCwETwvCqvhqNiLmwtnhMoAPr6LXoLiSnpi
0XHUZUcZ0WiyKg9GfEUv1XdvjRZypiafnIQHx2tPmN4SjqRtpG7xTVvJRFIq+i68
3yXtchF4Eu9MrGWaNHaLPwJpq2wQpIDoMMZlGaLuswKBgQDwjOgFyv0Dawx5lJKD
YiCt4SNdx/Ny7S/627EDgSLf4CKaH1zfKBw7Jmh8uE8CRb0YnYVdK4MPVL8H1GgM
MbTK+lWd2jjzI+IbbYwkJAwKe6VoIhTZVa95NAYWJ9nVGhnj+O4HdbSOfOGhODFH
FVi4dFPGMbZVS9G9NIBWzJn2kwKBgQDMRwjbLblw7hM/LV4XcF6xZiWb1fkIw0DS
aEfuljlSYeyMLHrlw/G4SqIok+ns4E/hxtAc7b7huk+ekDxEsd5Jtms3ImY8myvE
LZ9flNm8m86LuT0mjkYmbCKhRFBXLfUyETY1BwMkfkx2EkVocJ9FwZtDkQ8HrDEm
TK2WZWvc0wKBgG+tW0LlPJXLqxz+5w5sDjPrpBmz7MhcabwTJpkz6Nb7HdVj3iAU
ZRbo+/V7M+MgMWwuJW5d9xi1BYNDD5MpuH/LvNfuKiZncF+/eiKFQbnUMbSorflA
mJiymGjM04rl9UMrnIaGFO9Z9v58MhSISopIJ2SKS9ZJvvQSXcrubkRVAoGANrGS
OnTsoMLtnk28UpRAlkjeKvJIYkM8+Nj44XWRVXBokENciGZFMu2wqyKnUEfiu3Wq
xQQWxoNGzBKcQFxLQvs3i6SHMRTuy/DXKhVFkw04aQqox8jyGVl8kCclR6JDcytO
kzYUblHukPJlaQg2bMvgkV+mYYyGAFYpaAoxrgcCgYEA3W1qCg544qznvsGNjcL8
lp6+TDHCgDp0bvJnZn8cfQ8jdI7PnYtqSa6o1s4z3VIK8PER094Fehi1qsJ+QRky
fkbINb1x8Xp+ysHuZA1uUgsZaQCg8mSsjJQGFWRTI/P1lrSUitxXqkF73GOGrUPD
8n3G2yXzx/kfiM4NFYJXdgs=
-----END PRIVATE KEY-----
`,
  publicKey:
    'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAv/MIS1IemuvapNg91krndEDAKudGi+mKzD+XXjf45XczWQqWsvZMSWvPeMDnPageYd2NFNJCxXwTdpclSdc42HBSpGAajxEigOD9KruK6Is6RCVhz+fzm35Cj/vgQZfzacICqbrUQhJIDwz9Yw2cTv7VsE2Lv9KORz5jDuliqL45SXJ5Eo8L6SwyGhoPXlsTCJVj+SvGxe+yF0BQUGxKzUTSBLkhjPRWhPYUzes24yN1TfqhON3JKHtH0yqJ4XMoeGPMCA2891WOq1tQNZX3OaAr94lCALGVz+lNH86Tq7yWkb0/AViyTgjhDeLE2aHM1Aiyn0+O8Z3nDHMjAT2PKQIDAQAB',
} as const;

/** The demo suppliers' mail domain (their accounts' addresses, seed-data.ts) and that of the tests' own accounts. */
export const LOCAL_MAIL_DOMAINS = ['demo.pe', 'pruebas.pe'] as const;

/** The domain of the group's intake addresses on the local stage: facturas+<RUC>@recepcion.grupoandino.pe. */
export const LOCAL_INTAKE_MAIL_DOMAIN = 'recepcion.grupoandino.pe';

export const LOCAL_MAIL_DNS: DnsTable = Object.fromEntries(
  LOCAL_MAIL_DOMAINS.flatMap((domain) => [
    [domain, { TXT: ['v=spf1 ip4:127.0.0.1 -all'] }],
    [`${LOCAL_DKIM.selector}._domainkey.${domain}`, { TXT: [`v=DKIM1; k=rsa; p=${LOCAL_DKIM.publicKey}`] }],
  ]),
);

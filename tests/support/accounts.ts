import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { routes, withCheckDigit } from '@portal/shared';
import { call, idTokenOf } from './api.js';
import { mailbox } from './fixtures.js';
import { demoUser, stage } from './stage.js';
import { until } from './until.js';

export interface InvitedSupplier {
  readonly userId: string;
  readonly email: string;
  readonly ruc: string;
  readonly businessName: string;
}

/** A supplier account of its own, created by the admin API (the invitation goes to the local mailbox). */
export async function inviteSupplier(): Promise<InvitedSupplier> {
  const admin = demoUser('ADMIN');
  const tag = randomUUID().slice(0, 8);
  const email = `${tag}@pruebas.pe`;
  const ruc = withCheckDigit(`20${String(randomInt(10_000_000, 99_999_999))}`);
  const businessName = `Pruebas ${tag} S.A.C.`;
  const created = await call(routes.createExternalUser, {
    token: await idTokenOf(admin.username, admin.password),
    body: { email, firstName: 'Nora', lastName: 'Quispe', taxId: ruc, businessName },
  });
  if (created.status !== 201) throw new Error(`createExternalUser ${created.status}: ${JSON.stringify(created.body)}`);
  return { userId: created.body.id, email, ruc, businessName };
}

/** The temporary password of the newest invitation e-mailed to `email`. */
export function temporaryPasswordOf(email: string): Promise<string> {
  return until(
    async () => {
      const mail = (await mailbox()).findLast((message) => message.to.includes(email));
      return (mail && /Contraseña temporal: (\S+)/.exec(mail.text)?.[1]) ?? undefined;
    },
    { message: `the invitation to ${email}`, timeout: 15_000 },
  );
}

/**
 * The newest reset code cognito-local printed for `email` (test accounts have e-mails of their own,
 * so the newest box naming it is the code of the test's request).
 */
export function newestResetCodeOf(email: string): Promise<string> {
  const log = path.join(stage().dataDir, 'logs/cognito.log');
  // One delivery box: the ForgotPassword line, Username, Destination, Code.
  const pattern = new RegExp(
    `ForgotPassword[^\\n]*\\n(?:[^\\n]*\\n){0,4}?[^\\n]*Destination: +${email.replace(/[.]/g, '\\.')}[^\\n]*\\n[^\\n]*Code: +(\\d{6})`,
    'g',
  );
  // cognito-local writes into this log itself (local/stand-ins/cognito/cognito-local.ts), so the box is there as soon
  // as it answered, however busy the stage's own event loop is.
  return until(() => [...readFileSync(log, 'utf8').matchAll(pattern)].at(-1)?.[1], {
    message: `the reset code of ${email}`,
    timeout: 30_000,
  });
}

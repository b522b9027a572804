import type { Email } from '../adapters/email.js';
import { escapeHtml } from './notifications/portal-email.js';

export interface Invitation {
  readonly email: string;
  readonly firstName: string;
  readonly temporaryPassword: string;
  /** The supplier's business name and RUC, when known. */
  readonly company: { readonly name: string | null; readonly taxId: string } | null;
  readonly portalUrl: string | null;
}

export const INVITATION_SUBJECT = 'Portal de Proveedores: su cuenta de acceso';

/**
 * The invitation of a supplier account, sent by the portal (Cognito is told to stay silent): the
 * temporary password and where to use it. The first sign-in asks for a password of the user's own.
 */
export function invitationEmail(invitation: Invitation): Email {
  const greeting = invitation.firstName ? `Hola, ${invitation.firstName}:` : 'Hola:';
  const company = invitation.company
    ? ` para ${invitation.company.name ? `${invitation.company.name} (RUC ${invitation.company.taxId})` : `el RUC ${invitation.company.taxId}`}`
    : '';
  const where = invitation.portalUrl ? `Ingrese al portal en ${invitation.portalUrl}` : 'Ingrese al portal';
  const lines = [
    greeting,
    '',
    `Se creó su cuenta en el Portal de Proveedores${company}, donde podrá enviar sus comprobantes electrónicos y seguir su revisión y pago.`,
    '',
    `Usuario: ${invitation.email}`,
    `Contraseña temporal: ${invitation.temporaryPassword}`,
    '',
    `${where} con estos datos. Al iniciar sesión se le pedirá elegir una contraseña nueva.`,
    'Por seguridad, la contraseña temporal vence en pocos días; si ya no funciona, pida al administrador del portal que le envíe una nueva invitación.',
    '',
    'Portal de Proveedores',
  ];
  const link = invitation.portalUrl
    ? `<p><a href="${escapeHtml(invitation.portalUrl)}">Ingresar al portal</a></p>`
    : '';
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(lines[2]!)}</p>`,
    `<p>Usuario: <b>${escapeHtml(invitation.email)}</b><br>Contraseña temporal: <code>${escapeHtml(invitation.temporaryPassword)}</code></p>`,
    `<p>${escapeHtml(lines[7]!)}</p>`,
    link,
    `<p>${escapeHtml(lines[8]!)}</p>`,
    '<p style="color:#5f6b7a">Portal de Proveedores</p>',
  ].join('');
  return { to: invitation.email, subject: INVITATION_SUBJECT, text: lines.join('\n'), html };
}

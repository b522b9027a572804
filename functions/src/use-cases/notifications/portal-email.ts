/** Text made safe for an e-mail's HTML part. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The body of the portal's e-mails about one thing (an invoice's event, a personal notice): the text, a link to the
 * portal's page under `label` when there is one, and the portal's name, as plain text and as HTML.
 */
export function portalEmailBody(text: string, url: string | null, label: string): { text: string; html: string } {
  return {
    text: `${text}${url ? `\n\n${label}: ${url}` : ''}\n\nPortal de Proveedores`,
    html: `<p>${escapeHtml(text)}</p>${
      url ? `<p><a href="${escapeHtml(url)}">${label}</a></p>` : ''
    }<p style="color:#5f6b7a">Portal de Proveedores</p>`,
  };
}

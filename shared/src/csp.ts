/**
 * What the web app may reach besides its own origin. Values are origins, and some are CDK tokens at
 * synth time (bucket domain names, the region): contentSecurityPolicy only joins them, never reads them.
 */
export interface CspSources {
  /**
   * Origins the app fetches from besides 'self': the API when it is not same-origin, Cognito
   * (cognito-idp, or the local stand-in), the hosted UI (its /oauth2/token), the documents bucket
   * (presigned POST uploads).
   */
  readonly connect: readonly string[];
  /** Whether the AWS WAF challenge script may load and talk to its token endpoints (https://*.awswaf.com). */
  readonly waf: boolean;
  /** Whether the Dialogflow CX messenger may load (its script, theme, fonts and API). */
  readonly chat: boolean;
}

/** AWS WAF's JavaScript integration: challenge.js and the token endpoints it calls, all under its apex domain. */
const WAF_ORIGINS = ['https://*.awswaf.com'];

/** Google's Dialogflow CX Messenger (web/src/chat/dialogflow-messenger.tsx) and the API it talks to. */
const CHAT = {
  script: ['https://www.gstatic.com'],
  style: ['https://www.gstatic.com', 'https://fonts.googleapis.com'],
  font: ['https://fonts.gstatic.com'],
  img: ['https://www.gstatic.com'],
  // The agent's endpoint is dialogflow.googleapis.com or {region}-dialogflow.googleapis.com, and a CSP
  // wildcard can only stand for whole leftmost labels.
  connect: ['https://*.googleapis.com'],
};

/**
 * The site's Content-Security-Policy, one definition for every stage: CloudFront's response headers
 * policy sends it in AWS and the local web server sends it on the local stage, so the e2e tests run
 * the app under the production policy.
 *
 * What the app needs, read from its code and build:
 * - Scripts are the build's own modules (no inline script in index.html, no eval in any chunk).
 * - Styles: the build's CSS files only. React and Cloudscape set inline styles through the CSSOM
 *   (element.style), which style-src does not govern; nothing writes a style attribute or a <style>
 *   element. The Dialogflow messenger, a third-party web component whose styling we cannot audit,
 *   is the one exception: 'unsafe-inline' for styles is added only when it is enabled.
 * - Fonts: Cloudscape's global styles embed Open Sans as data: URIs.
 * - PDFs, XML and attachments open in a new tab or download from presigned links (navigations), so
 *   nothing is framed or embedded: frame-src and object-src are 'none'.
 * - Corporate sign-in navigates to the hosted UI (location.assign), it posts no form: form-action 'self'.
 */
export function contentSecurityPolicy(sources: CspSources): string {
  const script = ["'self'", ...(sources.waf ? WAF_ORIGINS : []), ...(sources.chat ? CHAT.script : [])];
  const style = ["'self'", ...(sources.chat ? [...CHAT.style, "'unsafe-inline'"] : [])];
  const connect = [
    "'self'",
    ...sources.connect,
    ...(sources.waf ? WAF_ORIGINS : []),
    ...(sources.chat ? CHAT.connect : []),
  ];
  const directives: [string, readonly string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', script],
    ['style-src', style],
    ['font-src', ["'self'", 'data:', ...(sources.chat ? CHAT.font : [])]],
    ['img-src', ["'self'", 'data:', ...(sources.chat ? CHAT.img : [])]],
    ['connect-src', connect],
    ['frame-src', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  // Only when nothing is reached over plain http (the local stage is): it would upgrade those calls too.
  // A CDK token never starts with 'http:', so a synthesized AWS policy keeps it.
  if (!sources.connect.some((source) => source.startsWith('http:'))) directives.push(['upgrade-insecure-requests', []]);
  return directives.map(([name, values]) => [name, ...new Set(values)].join(' ')).join('; ');
}

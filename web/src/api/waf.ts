import { HEADERS, type WebConfig } from '@portal/shared';

/** The part of AWS WAF's JavaScript integration (challenge.js, `window.AwsWafIntegration`) the client uses. */
export interface WafIntegration {
  /** The current token, solving WAF's challenge first when there is none or it expired. */
  getToken(): Promise<string>;
}

declare global {
  interface Window {
    AwsWafIntegration?: WafIntegration;
  }
}

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** challenge.js under the web ACL's integration URL, which AWS gives with a trailing slash (or not). */
export function challengeScriptUrl(integrationUrl: string): string {
  return `${integrationUrl.replace(/\/+$/, '')}/challenge.js`;
}

/** Why an API call could not be attested; the client reports it like any call that got no answer. */
export class WafUnavailableError extends Error {
  override readonly name = 'WafUnavailableError';
}

/** Settles with `work`, or rejects as soon as `signal` aborts: a challenge that never ends must not hold a call. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * The fetch every API call goes through (spec §1, app attestation): the browser's own when the stage has
 * no web ACL; otherwise one that first gets AWS WAF's token and sends it in x-aws-waf-token, since the
 * web ACL challenges any API request without a valid one. Obtaining it obeys the call's signal, so the
 * call's timeout also bounds the challenge.
 */
export function apiFetch(
  waf: WebConfig['waf'],
  deps: { fetch: Fetch; integration: (integrationUrl: string) => Promise<WafIntegration> },
): Fetch {
  if (!waf) return deps.fetch;
  return async (url, init) => {
    const token = await untilAborted(
      deps.integration(waf.integrationUrl).then((integration) => integration.getToken()),
      init.signal,
    );
    if (!token) throw new WafUnavailableError('AWS WAF no entregó un token');
    const headers = new Headers(init.headers);
    headers.set(HEADERS.wafToken, token);
    return deps.fetch(url, { ...init, headers });
  };
}

let loading: Promise<WafIntegration> | null = null;

/**
 * Adds challenge.js to the page once and resolves with `window.AwsWafIntegration`. A failed load is
 * forgotten, so the next call tries again. Never awaited before the first screen renders.
 */
export function loadWafIntegration(integrationUrl: string): Promise<WafIntegration> {
  loading ??= new Promise<WafIntegration>((resolve, reject) => {
    const script = document.createElement('script');
    const fail = (reason: string) => {
      script.remove();
      loading = null;
      reject(new WafUnavailableError(reason));
    };
    script.src = challengeScriptUrl(integrationUrl);
    script.async = true;
    script.onload = () => {
      const integration = window.AwsWafIntegration;
      if (integration) resolve(integration);
      else fail('challenge.js no definió AwsWafIntegration');
    };
    script.onerror = () => fail('No se pudo cargar challenge.js de AWS WAF');
    document.head.appendChild(script);
  });
  return loading;
}

import { NotFoundError, type RouteDef } from '@portal/shared';
import { httpHandler, type HttpEvent } from '../../http/wrapper.js';

/** The path as the API's routes see it: API Gateway puts a named stage's name (`/api`) in front of it. */
function routePath(event: HttpEvent): string {
  const raw = event.rawPath || event.requestContext?.http?.path || '/';
  const stage = event.requestContext?.stage;
  if (!stage || stage === '$default') return raw;
  if (raw === `/${stage}`) return '/';
  return raw.startsWith(`/${stage}/`) ? raw.slice(stage.length + 1) : raw;
}

/**
 * API Gateway's `$default` route: a method and path no manifest route serves. The HTTP wrapper answers it as it
 * answers every refusal (the CloudFront origin check first, then 404 ERROR_ROUTE_NOT_FOUND in the error body, with
 * the security and CORS headers and the txId), before any body or parameter is read. The local gateway answers its
 * unmatched requests with this same handler.
 */
export const handler = httpHandler(
  (event: HttpEvent): RouteDef => {
    throw new NotFoundError('ERROR_ROUTE_NOT_FOUND', {
      method: event.requestContext?.http?.method ?? 'GET',
      path: routePath(event),
    });
  },
  async () => {
    throw new Error('unreachable: every request to the $default route is refused');
  },
);

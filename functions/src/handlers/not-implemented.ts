import { NotImplementedError, ROUTES } from '@portal/shared';
import { byRouteKey, httpHandler } from '../http/wrapper.js';

/**
 * Serves every manifest route whose issue has not landed: same authorization as the real route,
 * then 501 in the error body shape.
 */
export const handler = httpHandler(byRouteKey(ROUTES), async () => {
  throw new NotImplementedError();
});

import { NotImplementedError } from '@portal/shared';
import { httpHandler } from '../http/wrapper.js';

/**
 * Serves every manifest route whose issue has not landed: same authorization as the real route,
 * then 501 in the error body shape.
 */
export const handler = httpHandler('byRouteKey', async () => {
  throw new NotImplementedError();
});

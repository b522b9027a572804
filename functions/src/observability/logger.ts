import { Logger } from '@aws-lambda-powertools/logger';

/** One structured JSON logger per function; requests log through a child carrying txId and route. */
export const logger = new Logger({ serviceName: 'portal-proveedores' });
export type { Logger };

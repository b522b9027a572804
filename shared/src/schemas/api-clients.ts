import * as z from 'zod/mini';
import { API_CLIENT_SCOPES } from '../auth.js';
import { IsoDateTime, Ruc } from './common.js';

// A supplier's API clients: OAuth2 client-credentials access for its own systems.

export const ApiClientScopeSchema = z.enum(API_CLIENT_SCOPES);

/** Cognito's app client id: 1-128 letters and digits (26 in practice). */
const ClientId = z.string().check(z.regex(/^[\w+]{1,128}$/, 'no es un identificador de cliente válido'));
export const ApiClientPath = z.object({ clientId: ClientId });

export const CreateApiClientBody = z.object({
  /** The supplier the client acts for: its tokens carry this RUC and no other. */
  taxId: Ruc,
  /** What the administrator calls it ("ERP de Acme"): shown in the list and the audit log. */
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  scopes: z.array(ApiClientScopeSchema).check(z.minLength(1), z.maxLength(API_CLIENT_SCOPES.length)),
});
export type CreateApiClientBody = z.infer<typeof CreateApiClientBody>;

/** An API client as the portal lists it: never its secret. */
export const ApiClient = z.object({
  clientId: z.string(),
  name: z.string(),
  taxId: z.string(),
  /** The supplier's business name, when the directory knows it. */
  supplierName: z.nullable(z.string()),
  scopes: z.array(ApiClientScopeSchema),
  createdAt: IsoDateTime,
  createdBy: z.string(),
  /** Null while active. A revoked client keeps its row (who revoked it and when). */
  revokedAt: z.nullable(IsoDateTime),
  revokedBy: z.nullable(z.string()),
});
export type ApiClient = z.infer<typeof ApiClient>;

/** The answer to its creation: the only time the portal shows the secret (Cognito keeps it; the portal does not). */
export const CreatedApiClient = z.extend(ApiClient, {
  clientSecret: z.string(),
  /** Where the client asks for its tokens (OAuth2 token endpoint, client_credentials grant). */
  tokenUrl: z.string(),
});
export type CreatedApiClient = z.infer<typeof CreatedApiClient>;

import { ApiGatewayV2Client, GetAuthorizerCommand, UpdateAuthorizerCommand } from '@aws-sdk/client-apigatewayv2';
import { RUNTIME_ENV } from '@portal/shared';
import { telemetry } from '../observability/telemetry.js';

/**
 * The JWT authorizer of the HTTP API accepts a token whose `aud` (ID tokens) or `client_id` (access tokens) is in
 * its audience list: the web app client, set by CDK, and each active API client, added and removed here
 * (docs/adr/0034-api-clients.md). The list written is always the whole truth (the web client plus every active
 * client the table lists), so that two administrators at once cannot leave a stale list behind for long.
 */
export interface AuthorizerAudience {
  /** Makes the audience exactly `web client + clientIds`. */
  set(clientIds: readonly string[]): Promise<void>;
}

export type ApiGatewayClient = Pick<ApiGatewayV2Client, 'send'>;

export function makeAuthorizerAudience(
  client: ApiGatewayClient,
  ids: () => { apiId: string; authorizerId: string; webClientId: string },
): AuthorizerAudience {
  return {
    async set(clientIds) {
      const { apiId, authorizerId, webClientId } = ids();
      const current = await client.send(new GetAuthorizerCommand({ ApiId: apiId, AuthorizerId: authorizerId }));
      const issuer = current.JwtConfiguration?.Issuer;
      if (!issuer) throw new Error(`Authorizer ${authorizerId} has no JWT issuer`);
      const audience = [webClientId, ...[...new Set(clientIds)].filter((id) => id !== webClientId).sort()];
      await client.send(
        new UpdateAuthorizerCommand({
          ApiId: apiId,
          AuthorizerId: authorizerId,
          JwtConfiguration: { Issuer: issuer, Audience: audience },
        }),
      );
    },
  };
}

/**
 * In AWS: the authorizer named by the environment. On the local stage there is no authorizer to rewrite (the
 * environment names none): the local gateway reads the active clients itself (local/runtime/gateway.ts).
 */
export function authorizerAudienceFromEnv(): AuthorizerAudience {
  const apiId = process.env[RUNTIME_ENV.apiId];
  const authorizerId = process.env[RUNTIME_ENV.apiAuthorizerId];
  const webClientId = process.env[RUNTIME_ENV.userPoolClientId];
  if (!apiId || !authorizerId || !webClientId) return { set: async () => undefined };
  const client = telemetry.instrumentClient(new ApiGatewayV2Client({}));
  return makeAuthorizerAudience(client, () => ({ apiId, authorizerId, webClientId }));
}

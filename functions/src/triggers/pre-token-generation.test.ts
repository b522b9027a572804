import type {
  Context,
  PreTokenGenerationTriggerEvent,
  PreTokenGenerationV2TriggerEvent,
  PreTokenGenerationV3TriggerEvent,
} from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { StoredApiClient } from '../repositories/api-clients.js';
import {
  applyMachineClaims,
  applyPortalClaims,
  applyPortalClaimsV2,
  handler,
  portalClaims,
} from './pre-token-generation.js';

const SSO_IDENTITIES = JSON.stringify([
  {
    userId: 'staff-1',
    providerName: 'CorporateSSO',
    providerType: 'OIDC',
    issuer: null,
    primary: 'true',
    dateCreated: '1700000000000',
  },
]);

function triggerEvent(userAttributes: Record<string, string>): PreTokenGenerationTriggerEvent {
  return {
    version: '1',
    region: 'us-east-1',
    userPoolId: 'us-east-1_test',
    userName: 'user',
    triggerSource: 'TokenGeneration_Authentication',
    callerContext: { awsSdkVersion: 'test', clientId: 'client' },
    request: { userAttributes, groupConfiguration: {} },
    response: { claimsOverrideDetails: {} },
  };
}

describe('portalClaims', () => {
  it('classifies a user without identities as SUPPLIER, whatever its groups', () => {
    expect(
      portalClaims(
        { email: 'proveedor@example.com', 'custom:taxId': '20100070970', 'custom:groups': '["portal-admins"]' },
        'portal-admins',
      ),
    ).toEqual({ level: 'SUPPLIER', taxId: '20100070970', signIn: 'PASSWORD' });
  });

  it('classifies a federated user outside the admin group as MANAGER', () => {
    expect(portalClaims({ identities: SSO_IDENTITIES, 'custom:groups': '["portal-staff"]' }, 'portal-admins')).toEqual({
      level: 'MANAGER',
      taxId: '',
      signIn: 'CORPORATE',
    });
  });

  it('classifies a federated user whose first group is the admin group as ADMIN', () => {
    expect(
      portalClaims({ identities: SSO_IDENTITIES, 'custom:groups': '["portal-admins","portal-staff"]' }, 'portal-admins')
        .level,
    ).toBe('ADMIN');
    expect(
      portalClaims({ identities: SSO_IDENTITIES, 'custom:groups': 'portal-admins, portal-staff' }, 'portal-admins')
        .level,
    ).toBe('ADMIN');
  });

  it('classifies a federated user with the admin group in second place as MANAGER', () => {
    expect(
      portalClaims({ identities: SSO_IDENTITIES, 'custom:groups': '["portal-staff","portal-admins"]' }, 'portal-admins')
        .level,
    ).toBe('MANAGER');
  });

  it('treats an empty or malformed identities attribute as not federated', () => {
    expect(portalClaims({ identities: '[]', 'custom:groups': '["portal-admins"]' }, 'portal-admins').level).toBe(
      'SUPPLIER',
    );
    expect(portalClaims({ identities: 'not json', 'custom:groups': '["portal-admins"]' }, 'portal-admins').level).toBe(
      'SUPPLIER',
    );
  });

  it('passes the taxId list through unchanged', () => {
    expect(portalClaims({ 'custom:taxId': '20100070970,20512345678' }, 'portal-admins').taxId).toBe(
      '20100070970,20512345678',
    );
    expect(
      portalClaims(
        { identities: SSO_IDENTITIES, 'custom:groups': '["portal-staff"]', 'custom:taxId': '20512345678' },
        'portal-admins',
      ),
    ).toEqual({ level: 'MANAGER', taxId: '20512345678', signIn: 'CORPORATE' });
  });
});

describe('handler', () => {
  it('writes level, taxId and how the user signed in into claimsToAddOrOverride, keeping other overrides', async () => {
    const event = triggerEvent({ 'custom:taxId': '20100070970' });
    event.response.claimsOverrideDetails.claimsToAddOrOverride = { other: 'kept' };
    event.response.claimsOverrideDetails.claimsToSuppress = ['phone_number'];
    const result = await handler(event, {} as Context);
    expect(result.response.claimsOverrideDetails).toEqual({
      claimsToAddOrOverride: { other: 'kept', level: 'SUPPLIER', taxId: '20100070970', signIn: 'PASSWORD' },
      claimsToSuppress: ['phone_number'],
    });
  });

  it.skipIf(process.env.ADMIN_GROUP_NAME !== undefined)(
    'uses the default admin group portal-admins when ADMIN_GROUP_NAME is not set',
    async () => {
      const event = triggerEvent({ identities: SSO_IDENTITIES, 'custom:groups': '["portal-admins"]' });
      const result = await handler(event, {} as Context);
      expect(result.response.claimsOverrideDetails.claimsToAddOrOverride).toEqual({
        level: 'ADMIN',
        taxId: '',
        signIn: 'CORPORATE',
      });
    },
  );

  it('honours an explicit admin group name', () => {
    const event = triggerEvent({ identities: SSO_IDENTITIES, 'custom:groups': '["ti-admins"]' });
    expect(applyPortalClaims(event, 'ti-admins').response.claimsOverrideDetails.claimsToAddOrOverride).toEqual({
      level: 'ADMIN',
      taxId: '',
      signIn: 'CORPORATE',
    });
  });
});

/** The V3 event Cognito sends when an app client asks for a token with its secret (client credentials). */
function clientCredentialsEvent(clientId: string): PreTokenGenerationV3TriggerEvent {
  return {
    version: '3',
    region: 'us-east-1',
    userPoolId: 'us-east-1_test',
    userName: '',
    triggerSource: 'TokenGeneration_ClientCredentials',
    callerContext: { awsSdkVersion: 'test', clientId },
    request: { userAttributes: {}, groupConfiguration: {}, scopes: ['portal/invoices.submit'] },
    response: { claimsAndScopeOverrideDetails: {} },
  };
}

const CLIENT: StoredApiClient = {
  clientId: 'client123',
  name: 'ERP',
  taxId: '20456178325',
  scopes: ['invoices.submit'],
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: 'admin@grupo.pe',
  revokedAt: null,
  revokedBy: null,
};

describe('an API client’s token (V3, client credentials)', () => {
  it('gets a supplier’s level, the client’s one RUC and the API sign-in in its access token', async () => {
    const result = await applyMachineClaims(clientCredentialsEvent('client123'), async (id) =>
      id === CLIENT.clientId ? CLIENT : null,
    );
    expect(result.response.claimsAndScopeOverrideDetails.accessTokenGeneration?.claimsToAddOrOverride).toEqual({
      level: 'SUPPLIER',
      taxId: '20456178325',
      signIn: 'API',
    });
  });

  it('fails for a client the table does not list, or one revoked: Cognito then issues no token', async () => {
    await expect(applyMachineClaims(clientCredentialsEvent('unknown'), async () => null)).rejects.toThrow(/not active/);
    const revoked = { ...CLIENT, revokedAt: '2026-02-01T00:00:00.000Z', revokedBy: 'admin@grupo.pe' };
    await expect(applyMachineClaims(clientCredentialsEvent('client123'), async () => revoked)).rejects.toThrow(
      /not active/,
    );
  });
});

describe('a user’s sign-in with the V2/V3 event (the Essentials plan in AWS)', () => {
  it('writes the same claims into the ID token, and the level and RUCs into the access token', async () => {
    const event = {
      ...triggerEvent({ 'custom:taxId': '20100070970', given_name: 'Pía' }),
      version: '2',
      response: { claimsAndScopeOverrideDetails: {} },
    } as unknown as PreTokenGenerationV2TriggerEvent;
    const details = applyPortalClaimsV2(event, 'portal-admins').response.claimsAndScopeOverrideDetails;
    expect(details.idTokenGeneration?.claimsToAddOrOverride).toEqual({
      level: 'SUPPLIER',
      taxId: '20100070970',
      signIn: 'PASSWORD',
      given_name: 'Pía',
    });
    expect(details.accessTokenGeneration?.claimsToAddOrOverride).toEqual({
      level: 'SUPPLIER',
      taxId: '20100070970',
      signIn: 'PASSWORD',
    });
    // The handler picks the V2 shape by the event's version.
    const viaHandler = (await handler(
      { ...event, response: { claimsAndScopeOverrideDetails: {} } } as never,
      {} as Context,
    )) as PreTokenGenerationV2TriggerEvent;
    expect(viaHandler.response.claimsAndScopeOverrideDetails.idTokenGeneration?.claimsToAddOrOverride?.level).toBe(
      'SUPPLIER',
    );
  });

  it('answers cognito-local’s version-0 event in the V1 shape', async () => {
    const event = { ...triggerEvent({ 'custom:taxId': '20100070970' }), version: '0' } as never;
    const result = (await handler(event, {} as Context)) as PreTokenGenerationTriggerEvent;
    expect(result.response.claimsOverrideDetails.claimsToAddOrOverride?.taxId).toBe('20100070970');
  });
});

import type { Context, PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { applyPortalClaims, handler, portalClaims } from './pre-token-generation.js';

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

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeStack } from './whole-stack.js';
import { FILE_LINKS_ENV, FILE_SANDBOX_POLICY, ROUTES } from '@portal/shared';
import { buildPortalApp, type PortalApp } from '../../infra/lib/app.js';
import { PORTAL_FUNCTION_TAG } from '../../infra/lib/constructs/portal-function.js';

type Resource = { Type: string; Properties?: Record<string, any> };

/** AWS's managed policies the links' behaviour uses (CloudFront's documented ids). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/**
 * Users' files are served by a distribution of their own, whose answers are never sniffed and, unless
 * they are a PDF, sandboxed; the functions' download links go through it.
 */
describe('the download links of documents (stage dev)', () => {
  let outdir: string;
  let portal: PortalApp;
  let resources: Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cdk-files-'));
    // Without bundling the functions: what is asserted here is the distribution and the functions' environment
    // (cdk-bundling.test.ts proves CDK's bundling).
    portal = buildPortalApp({ context: { stage: 'dev', 'aws:cdk:bundling-stacks': [] }, outdir });
    // cdk-nag runs at synthesis: an unacknowledged AwsSolutions finding makes this throw.
    portal.app.synth();
    resources = wholeStack(portal.stateless).toJSON().Resources as Record<string, Resource>;
  });

  afterAll(() => {
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  function filesDistribution() {
    const found = ofType('AWS::CloudFront::Distribution').filter(([id]) => id.startsWith('Files'));
    expect(found).toHaveLength(1);
    return found[0]![1].Properties!.DistributionConfig;
  }

  it('forwards every link whole to the documents bucket, never cached, read-only', () => {
    const config = filesDistribution();
    expect(config.Origins).toHaveLength(1);
    expect(JSON.stringify(config.Origins[0].DomainName)).toMatch(/RegionalDomainName|Documents/);
    expect(config.Origins[0].CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    expect(config.DefaultCacheBehavior).toMatchObject({
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      AllowedMethods: ['GET', 'HEAD'],
      ViewerProtocolPolicy: 'https-only',
    });
    expect(config.WebACLId).toBeDefined();
    expect(config.Logging).toBeDefined();
  });

  it('answers with nosniff and no framing, and sandboxes whatever is not a PDF', () => {
    const behavior = filesDistribution().DefaultCacheBehavior;
    const policies = ofType('AWS::CloudFront::ResponseHeadersPolicy').filter(([id]) => id.startsWith('Files'));
    expect(policies).toHaveLength(1);
    const [policyId, policy] = policies[0]!;
    expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    expect(policy.Properties!.ResponseHeadersPolicyConfig.SecurityHeadersConfig).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
    });

    const [association] = behavior.FunctionAssociations;
    expect(association.EventType).toBe('viewer-response');
    const [, fn] = ofType('AWS::CloudFront::Function').find(([id]) => id === association.FunctionARN['Fn::GetAtt'][0])!;
    const code = String(fn.Properties!.FunctionCode);
    expect(code).toContain(JSON.stringify(FILE_SANDBOX_POLICY));
    expect(code).toContain("'application/pdf'");
  });

  it('gives the functions that sign download links the links origin and the bucket domain they are signed for', () => {
    const signers = new Set(
      ROUTES.filter((route) =>
        route.uses.documents?.some((operation) => operation === 'presignDownload' || operation === 'exportDownload'),
      ).map((route) => route.id),
    );
    expect([...signers].sort()).toEqual(['getExport', 'getInvoiceFile', 'getInvoiceMessageFile']);
    const portalFunctions = ofType('AWS::Lambda::Function').flatMap(([, fn]) => {
      const tag = (fn.Properties?.Tags ?? []).find((t: { Key: string }) => t.Key === PORTAL_FUNCTION_TAG);
      return tag ? [[tag.Value as string, fn] as const] : [];
    });
    expect(portalFunctions.length).toBeGreaterThan(ROUTES.length);
    for (const [name, fn] of portalFunctions) {
      const variables = fn.Properties!.Environment.Variables;
      // Stack traces read the bundle's map when first read (stack-traces.test.ts), not at every cold start.
      expect(variables.NODE_OPTIONS, name).toBeUndefined();
      if (signers.has(name)) {
        expect(JSON.stringify(variables[FILE_LINKS_ENV.origin]), name).toMatch(/FilesDistribution.*DomainName/);
        expect(JSON.stringify(variables[FILE_LINKS_ENV.bucketDomain]), name).toMatch(/RegionalDomainName|Documents/);
      } else {
        // Least privilege (docs/permissions.md): a function that signs no link is not told where links go.
        expect(variables[FILE_LINKS_ENV.origin], name).toBeUndefined();
      }
    }
  });
});

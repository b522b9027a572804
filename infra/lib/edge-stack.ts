import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Firewall } from './constructs/firewall.js';
import { setLogRetention } from './constructs/portal-function.js';
import { stageNames } from './naming.js';
import type { StageConfig } from './stage-config.js';

/** CloudFront reads its web ACL from us-east-1 only, whatever the stage's region. */
export const EDGE_REGION = 'us-east-1';

export interface EdgeStackProps extends StackProps {
  readonly config: StageConfig;
}

/**
 * What CloudFront needs from us-east-1: the AWS WAF web ACL of the stage. The stateless stack reads its
 * ARN and integration URL through CDK's cross-region references (SSM parameters written by this stack).
 */
export class EdgeStack extends Stack {
  readonly firewall: Firewall;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    const { config } = props;
    setLogRetention(this, config.logRetentionDays);
    const names = stageNames(config.stage);
    this.firewall = new Firewall(this, 'Firewall', {
      name: names.webAcl,
      logGroupName: names.wafLogGroup,
      rateLimit: config.wafRateLimit,
      tokenDomains: config.domainName ? [config.domainName] : [],
      retain: config.retain,
    });
  }
}

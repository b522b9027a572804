/**
 * Physical names of the resources CDK cannot name itself (a name other services or operators type, or one an AWS
 * rule constrains). Every one carries the stage, so two stages coexist in one account; CloudFormation chooses the
 * names of everything else.
 */
const PRODUCT = 'portal-proveedores';

/** `portal-proveedores-{stage}[-{part}]`: lowercase, fit for Cognito domain prefixes, WAF and SES names. */
export function resourceName(stage: string, part?: string): string {
  return part ? `${PRODUCT}-${stage}-${part}` : `${PRODUCT}-${stage}`;
}

/** The physical names of one stage, in one place. */
export function stageNames(stage: string) {
  return {
    /** Hosted-UI domain prefix when the stage names none: https://{prefix}.auth.{region}.amazoncognito.com. */
    hostedUiDomainPrefix: resourceName(stage),
    /** The CloudFront web ACL (unique per account in us-east-1). */
    webAcl: resourceName(stage),
    /** WAF delivers logs only to log groups whose name starts with `aws-waf-logs-`. */
    wafLogGroup: `aws-waf-logs-${resourceName(stage)}`,
    /** The operators' CloudWatch dashboard (docs/deploying.md). */
    dashboard: `Portal-${stage}`,
    /** The SES configuration set of the portal's e-mail (the functions' and Cognito's). */
    emailConfigurationSet: resourceName(stage),
    /** The SES receipt rule set of the intake addresses; an operator makes it the active one. */
    receiptRuleSet: resourceName(stage, 'intake'),
  } as const;
}

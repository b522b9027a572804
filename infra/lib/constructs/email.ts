import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { RUNTIME_ENV } from '@portal/shared';
import { emailDomain, fromHeader, type EmailSender } from '../stage-mail.js';
import type { PortalFunction } from './portal-function.js';

export interface EmailProps {
  readonly sender: EmailSender;
  /** Name of the configuration set (unique per account and region: it carries the stage). */
  readonly configurationSetName: string;
}

/** A domain identity whose DKIM records CDK writes into a hosted zone that may be the domain's parent's. */
class DomainInZone extends ses.Identity {
  constructor(
    readonly value: string,
    readonly hostedZone: route53.IPublicHostedZone,
  ) {
    super();
  }
}

/** The events whose count the configuration set publishes to CloudWatch (namespace AWS/SES). */
const COUNTED_EVENTS = [
  ses.EmailSendingEvent.SEND,
  ses.EmailSendingEvent.DELIVERY,
  ses.EmailSendingEvent.BOUNCE,
  ses.EmailSendingEvent.COMPLAINT,
  ses.EmailSendingEvent.REJECT,
  ses.EmailSendingEvent.DELIVERY_DELAY,
  ses.EmailSendingEvent.RENDERING_FAILURE,
];

/**
 * The portal's outgoing e-mail through SES: the sender's domain identity (Easy DKIM), and a configuration set that
 * requires TLS, keeps reputation metrics, suppresses addresses that bounced or complained, and counts every sending
 * event in CloudWatch so alarms can watch bounces and complaints. `bind` lets one function send from that identity.
 */
export class Email extends Construct {
  readonly identity: ses.EmailIdentity;
  readonly configurationSet: ses.ConfigurationSet;
  /** The domain SES verifies (the sender address's). */
  readonly domain: string;
  readonly sender: EmailSender;
  readonly configurationSetName: string;
  /**
   * ARNs built from the names rather than read from the resources: the stateless stack's policies use them without
   * a cross-stack export, which would pin the stateful stack.
   */
  readonly identityArn: string;
  readonly configurationSetArn: string;

  constructor(scope: Construct, id: string, props: EmailProps) {
    super(scope, id);
    this.sender = props.sender;
    this.domain = emailDomain(props.sender.address);
    this.configurationSetName = props.configurationSetName;

    const zoneId = props.sender.hostedZoneId;
    this.identity = new ses.EmailIdentity(this, 'Identity', {
      // With a hosted zone, EasyDkim writes the three CNAME records there; without, the operator adds them (docs/deploying.md).
      identity: zoneId
        ? new DomainInZone(this.domain, route53.PublicHostedZone.fromPublicHostedZoneId(this, 'Zone', zoneId))
        : ses.Identity.domain(this.domain),
      dkimSigning: true,
      dkimIdentity: ses.DkimIdentity.easyDkim(ses.EasyDkimSigningKeyLength.RSA_2048_BIT),
    });

    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: props.configurationSetName,
      sendingEnabled: true,
      reputationMetrics: true,
      tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.configurationSet.addEventDestination('Metrics', {
      destination: ses.EventDestination.cloudWatchDimensions([
        {
          name: 'ConfigurationSet',
          source: ses.CloudWatchDimensionSource.MESSAGE_TAG,
          defaultValue: props.configurationSetName,
        },
      ]),
      events: COUNTED_EVENTS,
    });
    const stack = Stack.of(this);
    this.identityArn = stack.formatArn({ service: 'ses', resource: 'identity', resourceName: this.domain });
    this.configurationSetArn = stack.formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: props.configurationSetName,
    });
  }

  /**
   * Lets `fn` send e-mail from the sender through the configuration set, and tells it both (the mailer's
   * EMAIL_SENDER and EMAIL_CONFIGURATION_SET). The mailer calls SES v2 SendEmail, which IAM authorizes as
   * ses:SendEmail on the From identity and on the configuration set; nothing else.
   */
  bind(fn: PortalFunction): void {
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [this.identityArn, this.configurationSetArn],
      }),
    );
    fn.function.addEnvironment(RUNTIME_ENV.emailSender, fromHeader(this.sender));
    fn.function.addEnvironment(RUNTIME_ENV.emailConfigurationSet, this.configurationSetName);
  }
}

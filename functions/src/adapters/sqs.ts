import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { telemetry } from '../observability/telemetry.js';

/**
 * Built once per cold start; on the local stage the SDK's AWS_ENDPOINT_URL_SQS points it at the stand-in. Every
 * message sent carries the sender's trace context (a `traceparent` message attribute, telemetry.ts), so that its
 * consumer continues the trace.
 */
const sqs = telemetry.instrumentClient(new SQSClient({}));

export interface Queue {
  send(body: unknown): Promise<void>;
}

/** A queue whose URL CDK (or the local stage) put in the environment variable `env`. */
export function queueFromEnv(env: string): Queue {
  return {
    async send(body) {
      const url = process.env[env];
      if (!url) throw new Error(`${env} is not set`);
      await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(body) }));
    },
  };
}

import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { RUNTIME_ENV } from '@portal/shared';
import { telemetry } from '../observability/telemetry.js';

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

/** The raw received e-mails (inbound-mail/ of the inbound-mail bucket): read whole, then deleted. */
export function makeInboundMailBucket(env: NodeJS.ProcessEnv = process.env) {
  const client = telemetry.instrumentClient(
    new S3Client({ forcePathStyle: env[RUNTIME_ENV.s3ForcePathStyle] === 'true' }),
  );
  return {
    async get(bucket: string, key: string): Promise<Buffer | null> {
      try {
        const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Body ? Buffer.from(await Body.transformToByteArray()) : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(bucket: string, key: string): Promise<void> {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}

/** The slice of s3rver 3.7 (which ships no types) that the local stage uses. */
declare module 's3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';

  export interface S3rverBucketConfig {
    name: string;
    configs?: Array<string | Buffer>;
  }

  export interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    serviceEndpoint?: string;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: S3rverBucketConfig[];
  }

  /** A bucket subresource (cors, website) as the filesystem store persists it. */
  export interface S3rverSubresource {
    readonly type: string;
    toXML(space?: number): string;
  }

  export interface S3rverStore {
    listBuckets(): Promise<Array<{ name: string }>>;
    putBucket(bucket: string): Promise<unknown>;
    putSubresource(bucket: string, key: string | undefined, resource: S3rverSubresource): Promise<void>;
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    readonly store: S3rverStore;
    httpServer?: Server;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }

  export default S3rver;
}

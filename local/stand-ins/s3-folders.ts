import fs from 'node:fs';
import path from 'node:path';

/** The slice of s3rver 3.7's filesystem store whose folders are kept here. */
export interface FolderStore {
  getBucketPath(bucket: string): string;
  getResourcePath(bucket: string, key: string, resource: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
  putObject(...args: unknown[]): Promise<unknown>;
  copyObject(...args: unknown[]): Promise<unknown>;
  putMetadata(...args: unknown[]): Promise<unknown>;
  putObjectMultipart(...args: unknown[]): Promise<unknown>;
}

/** The files s3rver keeps for one object. */
const OBJECT_FILES = ['object', 'object.md5', 'metadata.json'] as const;

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * S3 has no folders, so nothing races on them there. s3rver keeps an object's files in folders named after its key and
 * removes the folders a deletion empties: two deletions at once in one folder failed (500) when the other had removed
 * it first, and a write into a folder being removed lost it. Here a deletion removes only its object's files, then the
 * folders left empty in one synchronous step, and none while a write is under way (a later deletion removes them).
 */
export function keepFoldersApart(store: FolderStore): void {
  let writes = 0;
  for (const name of ['putObject', 'copyObject', 'putMetadata', 'putObjectMultipart'] as const) {
    const write = store[name].bind(store);
    store[name] = async (...args: unknown[]) => {
      writes += 1;
      try {
        return await write(...args);
      } finally {
        writes -= 1;
      }
    };
  }
  store.deleteObject = async (bucket: string, key: string) => {
    await Promise.all(
      OBJECT_FILES.map((resource) =>
        fs.promises.unlink(store.getResourcePath(bucket, key, resource)).catch((error: unknown) => {
          if (code(error) !== 'ENOENT') throw error;
        }),
      ),
    );
    if (writes === 0)
      removeEmptyFolders(store.getBucketPath(bucket), path.dirname(store.getResourcePath(bucket, key, 'object')));
  };
}

/** From `folder` up to the bucket's own (kept), the folders left empty; one removed already is passed over. */
function removeEmptyFolders(bucketPath: string, folder: string): void {
  for (let current = folder; current.startsWith(`${bucketPath}${path.sep}`); current = path.dirname(current)) {
    try {
      if (fs.readdirSync(current).length > 0) return;
      fs.rmdirSync(current);
    } catch (error) {
      if (code(error) === 'ENOENT') continue;
      if (code(error) === 'ENOTEMPTY') return;
      throw error;
    }
  }
}

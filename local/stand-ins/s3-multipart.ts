import { S3Refusal } from './s3-sigv4.js';

/** S3's smallest part, but for the last one of an upload (5 MiB). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/**
 * What S3 checks of multipart uploads and s3rver 3.7 does not (the exports worker streams its files this way, ADR
 * 0030): s3rver assembles whatever parts a CompleteMultipartUpload lists, of any size and in any order, and has no
 * AbortMultipartUpload (DELETE …?uploadId answers 405). The proxy keeps, in memory, the size of every part it
 * forwarded and the uploads aborted, and answers as S3 does:
 * - AbortMultipartUpload: 204, and the upload is gone: a later part or completion is 404 NoSuchUpload (its parts stay
 *   on s3rver's disk, as AWS keeps them until the bucket's lifecycle rule removes them; no object is made);
 * - CompleteMultipartUpload: 400 InvalidPart for a part never uploaded, InvalidPartOrder when the list is not
 *   ascending, EntityTooSmall for a part under 5 MiB that is not the last.
 * A restart forgets the records: an upload begun before it is completed as s3rver would.
 */
export class MultipartUploads {
  private readonly parts = new Map<string, Map<number, number>>();
  private readonly aborted = new Set<string>();

  /**
   * Checks a request of a multipart upload before it reaches s3rver. Returns 'answered' when the proxy answers
   * itself (an abort), 'forward' otherwise; throws the refusal S3 would make.
   */
  check(method: string, query: URLSearchParams, body: Buffer): 'answered' | 'forward' {
    const uploadId = query.get('uploadId');
    if (!uploadId) return 'forward';
    if (this.aborted.has(uploadId)) {
      throw new S3Refusal(
        404,
        'NoSuchUpload',
        'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      );
    }
    if (method === 'DELETE') {
      this.aborted.add(uploadId);
      this.parts.delete(uploadId);
      return 'answered';
    }
    if (method === 'PUT') {
      const partNumber = Number(query.get('partNumber'));
      if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
        throw new S3Refusal(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive');
      }
      const sizes = this.parts.get(uploadId) ?? new Map<number, number>();
      sizes.set(partNumber, body.length);
      this.parts.set(uploadId, sizes);
      return 'forward';
    }
    if (method === 'POST') {
      this.checkCompletion(uploadId, body.toString('utf8'));
      // Completing: its records go (a second completion is s3rver's to answer).
      this.parts.delete(uploadId);
    }
    return 'forward';
  }

  private checkCompletion(uploadId: string, xml: string): void {
    const listed = [...xml.matchAll(/<PartNumber>\s*(\d+)\s*<\/PartNumber>/g)].map((match) => Number(match[1]));
    const sizes = this.parts.get(uploadId);
    // An upload this proxy saw no part of (begun before a restart): s3rver's own answer.
    if (!sizes) return;
    // As S3: every part listed must have been uploaded and the list ascending, before any size is judged.
    for (const [index, number] of listed.entries()) {
      if (!sizes.has(number)) {
        throw new S3Refusal(
          400,
          'InvalidPart',
          'One or more of the specified parts could not be found. The part may not have been uploaded.',
        );
      }
      if (index > 0 && number <= listed[index - 1]!) {
        throw new S3Refusal(400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
      }
    }
    if (listed.slice(0, -1).some((number) => sizes.get(number)! < MIN_PART_BYTES)) {
      throw new S3Refusal(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
    }
  }
}

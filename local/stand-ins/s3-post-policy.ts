import type http from 'node:http';
import { ALGORITHM, S3Refusal, compare, scopeOf, type Signer } from './s3-sigv4.js';

/**
 * A browser POST upload as S3 checks it: the form's policy signed, current and satisfied, every field allowed by a
 * condition, the file's size within content-length-range.
 */

/** A browser upload form: its fields (before the file) in order, and the file. */
export interface PostForm {
  readonly fields: ReadonlyArray<readonly [string, string]>;
  readonly fileName: string;
  readonly fileSize: number;
}

export async function verifyPostForm(signer: Signer, bucket: string, form: PostForm): Promise<void> {
  const fields = new Map<string, string>();
  for (const [name, value] of form.fields) {
    const lower = name.toLowerCase();
    if (fields.has(lower)) {
      throw new S3Refusal(400, 'InvalidArgument', `POST form fields must appear once: ${name}`);
    }
    fields.set(lower, value);
  }
  const encodedPolicy = fields.get('policy');
  // No policy: an anonymous upload, which only a public-write bucket accepts (none here).
  if (!encodedPolicy) throw new S3Refusal(403, 'AccessDenied', 'Access Denied');
  if (fields.get('x-amz-algorithm') !== ALGORITHM) {
    throw new S3Refusal(
      400,
      'InvalidArgument',
      'Bucket POST must contain a field named x-amz-algorithm with AWS4-HMAC-SHA256',
    );
  }
  const scope = scopeOf(signer, fields.get('x-amz-credential') ?? '', fields.get('x-amz-date') ?? '');
  const signature = fields.get('x-amz-signature') ?? '';
  compare(await signer.verifier.policySignature(encodedPolicy, scope), signature);

  const policy = decodePolicy(encodedPolicy);
  const expiration = Date.parse(policy.expiration);
  if (signer.now().getTime() > expiration) {
    throw new S3Refusal(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
  }
  if (!fields.has('key')) {
    throw new S3Refusal(400, 'InvalidArgument', "Bucket POST must contain a field named 'key'.");
  }

  // Every field must be allowed by a condition, except these (S3's rule).
  const covered = new Set(['policy', 'x-amz-signature', 'file']);
  const valueOf = (field: string): string => (field === 'bucket' ? bucket : (fields.get(field) ?? ''));
  for (const condition of policy.conditions) {
    const failed = () =>
      new S3Refusal(
        403,
        'AccessDenied',
        `Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`,
      );
    if (Array.isArray(condition)) {
      const [operator, target, value] = condition as unknown[];
      const op = String(operator).toLowerCase();
      if (op === 'content-length-range') {
        const [min, max] = [Number(target), Number(value)];
        if (!Number.isFinite(min) || !Number.isFinite(max)) throw invalidPolicy();
        if (form.fileSize > max) {
          throw new S3Refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
        }
        if (form.fileSize < min) {
          throw new S3Refusal(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
        }
        continue;
      }
      if (typeof target !== 'string' || !target.startsWith('$') || typeof value !== 'string') throw invalidPolicy();
      const field = target.slice(1).toLowerCase();
      covered.add(field);
      const actual = valueOf(field);
      if (op === 'eq') {
        if (actual !== value) throw failed();
      } else if (op === 'starts-with') {
        // For Content-Type, S3 checks each of a comma-separated list.
        const values = field === 'content-type' ? actual.split(',').map((part) => part.trim()) : [actual];
        if (!values.every((part) => part.startsWith(value))) throw failed();
      } else {
        throw invalidPolicy();
      }
    } else if (condition && typeof condition === 'object') {
      const entries = Object.entries(condition as Record<string, unknown>);
      if (entries.length !== 1) throw invalidPolicy();
      const [name, value] = entries[0]!;
      const field = name.replace(/^\$/, '').toLowerCase();
      covered.add(field);
      if (valueOf(field) !== String(value)) throw failed();
    } else {
      throw invalidPolicy();
    }
  }
  const extra = [...fields.keys()].filter((field) => !covered.has(field) && !field.startsWith('x-ignore-'));
  if (extra.length > 0) {
    throw new S3Refusal(403, 'AccessDenied', `Invalid according to Policy: Extra input fields: ${extra.join(', ')}`);
  }
}

function invalidPolicy(): S3Refusal {
  return new S3Refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
}

function decodePolicy(encoded: string): { expiration: string; conditions: unknown[] } {
  let policy: unknown;
  try {
    policy = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    throw invalidPolicy();
  }
  if (!policy || typeof policy !== 'object') throw invalidPolicy();
  const { expiration, conditions } = policy as { expiration?: unknown; conditions?: unknown };
  if (typeof expiration !== 'string' || Number.isNaN(Date.parse(expiration))) {
    throw new S3Refusal(400, 'InvalidPolicyDocument', "Invalid Policy: Invalid 'expiration' value.");
  }
  if (!Array.isArray(conditions)) {
    throw new S3Refusal(400, 'InvalidPolicyDocument', "Invalid Policy: Invalid 'conditions' value.");
  }
  return { expiration, conditions };
}

/** A browser upload: the policy checked, then the form as checked handed to s3rver. */
export async function postUpload(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  ctx: {
    /** The policy check (s3-auth.ts verifyPostForm). */
    readonly verify: (bucket: string, form: PostForm) => Promise<void>;
    /** s3rver's port. */
    readonly internalPort: number;
  },
  bucket: string,
  body: Buffer,
): Promise<void> {
  let form: FormData;
  try {
    form = await new Request('http://s3.local/', {
      method: 'POST',
      headers: { 'content-type': String(req.headers['content-type']) },
      body,
    }).formData();
  } catch {
    throw new S3Refusal(
      400,
      'MalformedPOSTRequest',
      'The body of your POST request is not well-formed multipart/form-data.',
    );
  }
  const fields: Array<[string, string]> = [];
  let file: Blob | null = null;
  let fileName = '';
  // S3 ignores every field after the file.
  for (const [name, value] of form.entries()) {
    if (name.toLowerCase() === 'file') {
      file = typeof value === 'string' ? new Blob([value]) : value;
      fileName = typeof value === 'string' ? '' : value.name;
      break;
    }
    if (typeof value === 'string') fields.push([name, value]);
  }
  if (!file) throw new S3Refusal(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  await ctx.verify(bucket, { fields, fileName, fileSize: file.size });

  const checked = new FormData();
  for (const [name, value] of fields) {
    if (name.toLowerCase() === 'key') checked.append('key', value.replaceAll('${filename}', fileName));
    else checked.append(name, value);
  }
  checked.append('file', file, fileName || 'file');
  const origin = req.headers.origin;
  const upstream = await fetch(`http://127.0.0.1:${ctx.internalPort}${req.url ?? '/'}`, {
    method: 'POST',
    body: checked,
    headers: origin ? { origin } : {},
    redirect: 'manual',
  });
  const answer = Buffer.from(await upstream.arrayBuffer());
  const headers: http.OutgoingHttpHeaders = {};
  upstream.headers.forEach((value, name) => {
    if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name))
      headers[name] = value;
  });
  res.writeHead(upstream.status, { ...headers, 'content-length': answer.length });
  res.end(answer);
}

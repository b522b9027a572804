import type http from 'node:http';

/**
 * s3rver lists a bucket by walking its folder, and fails the listing (500 InternalError) when an object it walks is
 * deleted meanwhile; S3 lists whatever another client deletes. So a listing (a GET of the bucket itself) and a
 * deletion never run at once here: listings share a gate that deletions take alone, each waiting for the other kind
 * to finish.
 */
export const isListing = (req: http.IncomingMessage) =>
  req.method === 'GET' && /^\/[^/?]+\/?(\?|$)/.test(req.url ?? '') && !/[?&]X-Amz-Signature=/.test(req.url ?? '');
export const isDeletion = (req: http.IncomingMessage) =>
  req.method === 'DELETE' || (req.method === 'POST' && /[?&]delete(=|&|$)/.test(req.url ?? ''));

export interface Gate {
  listings: number;
  deletions: number;
  readonly waiting: (() => void)[];
}

async function enter(gate: Gate, kind: 'listing' | 'deletion'): Promise<void> {
  while (kind === 'listing' ? gate.deletions > 0 : gate.listings > 0) {
    await new Promise<void>((resolve) => gate.waiting.push(resolve));
  }
  if (kind === 'listing') gate.listings += 1;
  else gate.deletions += 1;
}

function leave(gate: Gate, kind: 'listing' | 'deletion'): void {
  if (kind === 'listing') gate.listings -= 1;
  else gate.deletions -= 1;
  for (const wake of gate.waiting.splice(0)) wake();
}

/** Runs `work` inside the gate, as a listing or a deletion. */
export async function gated<T>(gate: Gate, kind: 'listing' | 'deletion', work: () => Promise<T>): Promise<T> {
  await enter(gate, kind);
  try {
    return await work();
  } finally {
    leave(gate, kind);
  }
}

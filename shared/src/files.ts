/**
 * How a user's file is served: its links go through a CloudFront distribution of their own (never
 * the portal's origin), whose answers carry these headers; the local S3 stand-in adds the same to the links'
 * answers. The link states the type and the disposition itself (uploads.ts), so a file is a PDF or a download.
 */

/** A file that is not a PDF runs nothing and loads nothing, even if its bytes are a web page. */
export const FILE_SANDBOX_POLICY = "sandbox; default-src 'none'";

/**
 * The environment that sends the functions' download links through that distribution: the links' origin and
 * the bucket's regional domain (the distribution's origin, the host a link is signed for). Unset: links go
 * straight to the bucket (the local stage, whose S3 stand-in plays the distribution's part).
 */
export const FILE_LINKS_ENV = {
  origin: 'DOCUMENT_LINKS_ORIGIN',
  bucketDomain: 'DOCUMENTS_BUCKET_DOMAIN',
} as const;

/**
 * The headers a file's answer gets: never sniffed, and sandboxed unless it is a PDF (a `sandbox` policy keeps
 * Safari, and Chrome before it dropped policies on PDFs, from showing a PDF at all; a PDF is shown by the
 * browser's PDF viewer, which runs no page of the file).
 */
export function fileResponseHeaders(contentType: string | null | undefined): Record<string, string> {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return {
    'x-content-type-options': 'nosniff',
    ...(type === 'application/pdf' ? {} : { 'content-security-policy': FILE_SANDBOX_POLICY }),
  };
}

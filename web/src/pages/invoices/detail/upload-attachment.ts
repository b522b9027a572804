import { routes } from '@portal/shared';
import { apiCall } from '../../../api/client';

/** Spec §5: supporting attachments may be PDF, PNG or JPG. */
export const ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export const ATTACHMENT_ACCEPT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

/** The bucket refused the file (network, size or policy): nothing was stored. */
export class UploadRefusedError extends Error {
  override readonly name = 'UploadRefusedError';
}

/**
 * Sends one supporting document to the documents bucket: a presigned POST from the API (POST
 * /uploads, purpose ATTACHMENT), then the file straight to the bucket. Answers the stored key, which
 * the invoice update names in `attachments`; the server checks type, size and content itself. The
 * upload is made for the invoice's company (`company`): the update takes no other company's upload. A message's
 * attachment (purpose MESSAGE_ATTACHMENT) is made for the writer's side of the invoice: its supplier or its company.
 */
export async function uploadAttachment(
  file: File,
  company: string,
  purpose: 'ATTACHMENT' | 'MESSAGE_ATTACHMENT' = 'ATTACHMENT',
): Promise<string> {
  const ticket = await apiCall(routes.createUpload, {
    company,
    body: {
      purpose,
      fileName: file.name,
      // An unknown type is sent as such, for the API to refuse with the allowed types in its message.
      contentType: file.type || 'application/octet-stream',
      size: file.size,
    },
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(ticket.url, { method: 'POST', body: form });
  } catch (error) {
    throw new UploadRefusedError(file.name, { cause: error });
  }
  if (!response.ok) throw new UploadRefusedError(file.name);
  return ticket.key;
}

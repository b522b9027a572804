import { conversationDeps } from './conversations.factory.js';
import { makeConversationUseCases } from './conversations.js';
import { downloadLink } from './uploads/download-link.js';
import { uploadsDeps } from './uploads/uploads.factory.js';
import { verifyMessageAttachment } from './uploads/verify-upload.js';

/** The conversation use cases that attach and link files: posting, observing, an attachment's link. */
export const conversationsWithFiles = makeConversationUseCases({
  ...conversationDeps,
  verifyAttachment: (key, tenants, position) => verifyMessageAttachment(uploadsDeps, key, tenants, position),
  downloadLink: (key, fileName) => downloadLink(uploadsDeps, key, fileName),
});

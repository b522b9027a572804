import { downloadLink } from '../uploads/download-link.js';
import { uploadsDeps } from '../uploads/uploads.factory.js';
import { verifyMessageAttachment } from '../uploads/verify-upload.js';
import type { ConversationDeps } from './conversation-deps.js';
import { conversationDeps } from './conversations.factory.js';

/** The conversation's adapters plus the documents bucket: for posting, observing and an attachment's link. */
export const conversationFilesDeps: ConversationDeps = {
  ...conversationDeps,
  verifyAttachment: (key, tenants, position) => verifyMessageAttachment(uploadsDeps, key, tenants, position),
  downloadLink: (key, fileName) => downloadLink(uploadsDeps, key, fileName),
};

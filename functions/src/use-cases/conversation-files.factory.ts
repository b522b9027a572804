import { conversationDeps } from './conversations.factory.js';
import { makeConversationUseCases } from './conversations.js';
import { uploads } from './uploads.factory.js';

/** The conversation use cases that attach and link files: posting, observing, an attachment's link. */
export const conversationsWithFiles = makeConversationUseCases({
  ...conversationDeps,
  verifyAttachment: (key, tenants, position) => uploads.verifyMessageAttachment(key, tenants, position),
  downloadLink: (key, fileName) => uploads.downloadLink(key, fileName),
});

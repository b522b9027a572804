import { messages } from '../../messages';
import { ForbiddenView } from './forbidden-view';

/** /forbidden: where a 403 from any call lands. */
export default function GuestForbiddenPage() {
  return <ForbiddenView title={messages.forbidden.guestTitle} text={messages.forbidden.guestText} />;
}

import { messages } from '../../messages';
import { ForbiddenView } from './forbidden-view';

/** /manager/forbidden: a manager whose token carries no taxId. */
export default function ManagerForbiddenPage() {
  return <ForbiddenView title={messages.forbidden.managerTitle} text={messages.forbidden.managerText} />;
}

import { messages } from '../../messages';
import { ForbiddenView } from './forbidden-view';

/** /supplier/forbidden: a supplier whose token carries no taxId. */
export default function SupplierForbiddenPage() {
  return <ForbiddenView title={messages.forbidden.supplierTitle} text={messages.forbidden.supplierText} />;
}

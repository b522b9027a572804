import ButtonDropdown, { type ButtonDropdownProps } from '@cloudscape-design/components/button-dropdown';
import type { TableProps } from '@cloudscape-design/components/table';
import Toggle from '@cloudscape-design/components/toggle';
import { LEVEL_LABELS, type ExternalUser } from '@portal/shared';
import { AccountStatus } from '../admin-shared/account-status';
import { UserCell } from '../admin-shared/user-cell';
import { suppliersMessages } from './messages';

const text = suppliersMessages;

/** What the options menu of a row can ask for. */
export type SupplierAction = 'reset' | 'disable' | 'enable' | 'history';

function optionItems(user: ExternalUser): ButtonDropdownProps.Item[] {
  return [
    {
      id: 'reset',
      text: text.options.reset,
      disabled: !user.enabled,
      disabledReason: user.enabled ? undefined : text.options.resetDisabled,
    },
    user.enabled ? { id: 'disable', text: text.options.disable } : { id: 'enable', text: text.options.enable },
    { id: 'history', text: text.options.history },
  ];
}

/** The Suppliers table of spec §2: user, RUC/ID, business name, role, options, e-mail reception, status. */
export function supplierColumns(options: {
  /** The reception a row is being switched to, while the call is under way. */
  pendingReception: ReadonlyMap<string, boolean>;
  onReceptionChange: (user: ExternalUser, include: boolean) => void;
  onAction: (user: ExternalUser, action: SupplierAction) => void;
}): TableProps.ColumnDefinition<ExternalUser>[] {
  return [
    { id: 'user', header: text.columns.user, cell: (user) => <UserCell user={user} />, isRowHeader: true },
    { id: 'taxId', header: text.columns.taxId, cell: (user) => user.taxId ?? '—' },
    { id: 'businessName', header: text.columns.businessName, cell: (user) => user.companyName ?? '—' },
    { id: 'role', header: text.columns.role, cell: (user) => LEVEL_LABELS[user.role] },
    {
      id: 'options',
      header: text.columns.options,
      cell: (user) => (
        <ButtonDropdown
          variant="icon"
          ariaLabel={text.options.menuFor(user.email)}
          items={optionItems(user)}
          expandToViewport
          onItemClick={({ detail }) => options.onAction(user, detail.id as SupplierAction)}
        />
      ),
    },
    {
      id: 'reception',
      header: text.columns.reception,
      cell: (user) => {
        const pending = options.pendingReception.get(user.id);
        return (
          <Toggle
            checked={pending ?? user.canReceiveEmails}
            disabled={pending !== undefined}
            ariaLabel={text.reception.toggleFor(user.email)}
            onChange={({ detail }) => options.onReceptionChange(user, detail.checked)}
          />
        );
      },
    },
    { id: 'status', header: text.columns.status, minWidth: 200, cell: (user) => <AccountStatus user={user} /> },
  ];
}

import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import type { TableProps } from '@cloudscape-design/components/table';
import { LEVEL_LABELS, parseTaxIds, type Client, type InternalUser } from '@portal/shared';
import { adminMessages } from '../admin-shared/messages';
import { UserCell, displayName } from '../admin-shared/user-cell';
import { employeesMessages } from './messages';

const text = employeesMessages;

/** The names of an account's companies, from the group's list (the RUC when a company is unknown). */
export function companyNames(taxId: string | null, clients: readonly Client[]): string[] {
  return parseTaxIds(taxId).map((ruc) => clients.find((client) => client.taxId === ruc)?.name ?? ruc);
}

/** The Employees table of spec §2: user, company, role, reassign; plus status and history. */
export function employeeColumns(options: {
  clients: readonly Client[];
  onReassign: (user: InternalUser) => void;
  onHistory: (user: InternalUser) => void;
}): TableProps.ColumnDefinition<InternalUser>[] {
  return [
    { id: 'user', header: text.columns.user, cell: (user) => <UserCell user={user} />, isRowHeader: true },
    {
      id: 'company',
      header: text.columns.company,
      cell: (user) => {
        const names = companyNames(user.taxId, options.clients);
        return names.length > 0 ? (
          <span data-testid="employee-companies">{names.join(', ')}</span>
        ) : (
          <Box variant="span" color="text-body-secondary">
            <span data-testid="employee-companies">{text.noCompanies}</span>
          </Box>
        );
      },
    },
    { id: 'role', header: text.columns.role, cell: (user) => LEVEL_LABELS[user.role] },
    {
      id: 'status',
      header: text.columns.status,
      cell: (user) => (
        <Badge color={user.enabled ? 'green' : 'grey'}>
          {user.enabled ? adminMessages.account.enabled : adminMessages.account.disabled}
        </Badge>
      ),
    },
    {
      id: 'reassign',
      header: text.columns.reassign,
      cell: (user) => (
        <Button
          variant="inline-link"
          ariaLabel={text.reassign.actionFor(displayName(user))}
          onClick={() => options.onReassign(user)}
        >
          {text.reassign.action}
        </Button>
      ),
    },
    {
      id: 'history',
      header: text.columns.history,
      cell: (user) => (
        <Button
          variant="inline-link"
          ariaLabel={adminMessages.history.actionFor(displayName(user))}
          onClick={() => options.onHistory(user)}
        >
          {adminMessages.history.action}
        </Button>
      ),
    },
  ];
}

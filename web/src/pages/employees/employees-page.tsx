import { useMemo, useState } from 'react';
import Header from '@cloudscape-design/components/header';
import Table from '@cloudscape-design/components/table';
import { routes, type InternalUser } from '@portal/shared';
import { useClients } from '../../hooks/use-clients';
import { HistoryModal } from '../admin-shared/history-modal';
import { adminMessages } from '../admin-shared/messages';
import { useCursorPages } from '../../hooks/use-cursor-pages';
import { useForgetRoute } from '../admin-shared/use-forget-route';
import { TableEmptyState } from '../../components/table-empty-state';
import { CursorPagination } from '../../components/cursor-pagination';
import { employeeColumns } from './columns';
import { employeesMessages } from './messages';
import { ReassignModal } from './reassign-modal';
import { RefreshButton } from '../../components/refresh-button';

const text = employeesMessages;
const PAGE_SIZE = 50;
const NO_FILTER = {};

/** /employees ('Usuarios internos', spec §2): the staff accounts, their companies, and who changed what. */
export default function EmployeesPage() {
  const users = useCursorPages(routes.listInternalUsers, NO_FILTER, PAGE_SIZE);
  const { clients } = useClients();
  const forgetRoute = useForgetRoute();
  const [reassigning, setReassigning] = useState<InternalUser | null>(null);
  const [history, setHistory] = useState<InternalUser | null>(null);
  const columns = useMemo(
    () => employeeColumns({ clients, onReassign: setReassigning, onHistory: setHistory }),
    [clients],
  );

  const afterReassign = () => {
    setReassigning(null);
    void forgetRoute(routes.listAuditEvents);
    void users.refresh();
  };

  return (
    <>
      <Table
        variant="full-page"
        stickyHeader
        wrapLines
        ariaLabels={{ tableLabel: text.tableLabel }}
        header={
          <Header
            variant="awsui-h1-sticky"
            description={text.description}
            actions={<RefreshButton ariaLabel={adminMessages.refresh} list={users} />}
          >
            {text.title}
          </Header>
        }
        columnDefinitions={columns}
        items={users.items}
        trackBy="id"
        loading={users.isLoading}
        loadingText={text.loading}
        empty={<TableEmptyState testId="employees" error={users.error} onRetry={users.refresh} message={text.empty} />}
        pagination={<CursorPagination pages={users} />}
      />
      {reassigning && (
        <ReassignModal user={reassigning} onDismiss={() => setReassigning(null)} onSaved={afterReassign} />
      )}
      {history && <HistoryModal user={history} kind="internal" onDismiss={() => setHistory(null)} />}
    </>
  );
}

import { useMemo, useState } from 'react';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import { routes, type CreatedExternalUser, type ExternalUser } from '@portal/shared';
import { useFeedback } from '../../feedback/feedback';
import { HistoryModal } from '../admin-shared/history-modal';
import { useCursorPages, type PageFilter } from '../../hooks/use-cursor-pages';
import { useListExport } from '../../components/list-export';
import { useForgetRoute } from '../admin-shared/use-forget-route';
import { TableEmptyState } from '../../components/table-empty-state';
import { CursorPagination } from '../../components/cursor-pagination';
import { supplierColumns, type SupplierAction } from './columns';
import { CreateSupplierModal } from './create-supplier-modal';
import { SupplierConfirmModal, type ConfirmableAction } from './supplier-confirm-modal';
import { suppliersMessages } from './messages';
import { BulkReceptionModal, SuppliersActions, useReceptionChanges } from './supplier-reception';

const text = suppliersMessages;
const PAGE_SIZE = 50;

const ARIA_LABELS: TableProps.AriaLabels<ExternalUser> = {
  tableLabel: text.tableLabel,
  selectionGroupLabel: text.selection.group,
  allItemsSelectionLabel: () => text.selection.all,
  itemSelectionLabel: (_, user) => text.selection.one(user.email),
};

/** The search box: sent once typing pauses, or at once when emptied. */
function SupplierSearch({ onSearch }: { onSearch: (value: string) => void }) {
  const [filteringText, setFilteringText] = useState('');
  return (
    <div style={{ maxWidth: 480 }}>
      <TextFilter
        filteringText={filteringText}
        filteringPlaceholder={text.search.placeholder}
        filteringAriaLabel={text.search.ariaLabel}
        filteringClearAriaLabel={text.search.clear}
        onChange={({ detail }) => {
          setFilteringText(detail.filteringText);
          if (detail.filteringText === '') onSearch('');
        }}
        onDelayedChange={({ detail }) => onSearch(detail.filteringText)}
      />
    </div>
  );
}

/**
 * /suppliers ('Usuarios proveedores', spec §2): the supplier accounts, searched by RUC, business name
 * or e-mail; their e-mail reception one by one or in bulk; password reset, disable and enable with a
 * confirmation; their history; and new accounts.
 */
export default function SuppliersPage() {
  const feedback = useFeedback();
  const forgetRoute = useForgetRoute();
  const [query, setQuery] = useState('');
  const filter = useMemo<PageFilter<typeof routes.listExternalUsers>>(() => (query ? { query } : {}), [query]);
  const users = useCursorPages(routes.listExternalUsers, filter, PAGE_SIZE);
  const listExport = useListExport('suppliers', filter);

  const [selected, setSelected] = useState<ExternalUser[]>([]);
  /** The bulk change of e-mail reception being confirmed: true turns it on, false off. */
  const [confirmingBulk, setConfirmingBulk] = useState<boolean | null>(null);
  const [creating, setCreating] = useState(false);

  /** After any change: the table from the server, and no stale history. */
  const refreshAfterChange = async () => {
    await forgetRoute(routes.listAuditEvents);
    await users.refresh();
  };

  const { pendingReception, bulkBusy, changeReception, changeReceptionInBulk } = useReceptionChanges(
    selected,
    refreshAfterChange,
  );

  const accountActions = useAccountActions(refreshAfterChange);

  const search = (value: string) => {
    const next = value.trim();
    if (next === query) return;
    setSelected([]);
    setQuery(next);
  };

  const onCreated = (created: CreatedExternalUser) => {
    setCreating(false);
    if (created.invitationSent) feedback.success(text.create.created(created.email));
    else feedback.error(text.create.createdWithoutInvitation(created.email));
    void refreshAfterChange();
  };

  const columns = supplierColumns({
    pendingReception,
    onReceptionChange: (user, include) => void changeReception(user, include),
    onAction: accountActions.onAction,
  });

  const noSelection = selected.length === 0;
  return (
    <>
      <Table
        variant="full-page"
        stickyHeader
        wrapLines
        selectionType="multi"
        selectedItems={selected}
        onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
        ariaLabels={ARIA_LABELS}
        header={
          <SpaceBetween size="s">
            <Header
              variant="awsui-h1-sticky"
              description={text.description}
              counter={noSelection ? undefined : `(${text.selection.count(selected.length)})`}
              actions={
                <SuppliersActions
                  refreshing={users.isRefreshing}
                  onRefresh={() => void users.refresh()}
                  exportButton={listExport.button}
                  noSelection={noSelection}
                  bulkBusy={bulkBusy}
                  onBulk={setConfirmingBulk}
                  onCreate={() => setCreating(true)}
                />
              }
            >
              {text.title}
            </Header>
            {listExport.alert}
          </SpaceBetween>
        }
        filter={<SupplierSearch onSearch={search} />}
        columnDefinitions={columns}
        items={users.items}
        trackBy="id"
        loading={users.isLoading}
        loadingText={text.loading}
        empty={
          <TableEmptyState
            testId="suppliers"
            error={users.error}
            onRetry={users.refresh}
            message={query ? text.noMatch : text.empty}
          />
        }
        pagination={<CursorPagination pages={users} />}
      />
      {confirmingBulk !== null && (
        <BulkReceptionModal
          include={confirmingBulk}
          selected={selected}
          onConfirm={async () => {
            await changeReceptionInBulk(confirmingBulk);
            setConfirmingBulk(null);
          }}
          onDismiss={() => setConfirmingBulk(null)}
        />
      )}
      {creating && <CreateSupplierModal onDismiss={() => setCreating(false)} onCreated={onCreated} />}
      {accountActions.modals}
    </>
  );
}

/** A row's action: its history, or a change (password reset, disable, enable) confirmed first. */
function useAccountActions(refreshAfterChange: () => Promise<void>) {
  const [confirming, setConfirming] = useState<{ user: ExternalUser; action: ConfirmableAction } | null>(null);
  const [history, setHistory] = useState<ExternalUser | null>(null);
  const onAction = (user: ExternalUser, action: SupplierAction) => {
    if (action === 'history') setHistory(user);
    else setConfirming({ user, action });
  };
  const modals = (
    <>
      {confirming && (
        <SupplierConfirmModal
          user={confirming.user}
          action={confirming.action}
          onDismiss={() => setConfirming(null)}
          onDone={() => {
            setConfirming(null);
            void refreshAfterChange();
          }}
        />
      )}
      {history && <HistoryModal user={history} kind="external" onDismiss={() => setHistory(null)} />}
    </>
  );
  return { onAction, modals };
}

import { useMemo, useState } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import {
  CLIENT_MESSAGES,
  formatErrorMessage,
  routes,
  type BulkUserResult,
  type CreatedExternalUser,
  type ExternalUser,
} from '@portal/shared';
import { apiCall } from '../../api/client';
import { useFeedback } from '../../feedback/feedback';
import { HistoryModal } from '../admin-shared/history-modal';
import { adminMessages } from '../admin-shared/messages';
import { useCursorPages, type PageFilter } from '../../hooks/use-cursor-pages';
import { useListExport } from '../../components/list-export';
import { useForgetRoute } from '../admin-shared/use-forget-route';
import { TableEmptyState } from '../../components/table-empty-state';
import { CursorPagination } from '../../components/cursor-pagination';
import { DecisionModal } from '../../components/decision-modal';
import { supplierColumns, type SupplierAction } from './columns';
import { CreateSupplierModal } from './create-supplier-modal';
import { SupplierConfirmModal, type ConfirmableAction } from './supplier-confirm-modal';
import { suppliersMessages } from './messages';

const text = suppliersMessages;
const PAGE_SIZE = 50;

/** Why one account of a bulk change failed, by spec §8's display rule (its code, else unexpected). */
function bulkFailureReason(result: BulkUserResult): string {
  const code = result.error?.code;
  return code ? formatErrorMessage(code) : CLIENT_MESSAGES.unexpected;
}

/**
 * /suppliers ('Usuarios proveedores', spec §2): the supplier accounts, searched by RUC, business name
 * or e-mail; their e-mail reception one by one or in bulk; password reset, disable and enable with a
 * confirmation; their history; and new accounts.
 */
export default function SuppliersPage() {
  const feedback = useFeedback();
  const forgetRoute = useForgetRoute();
  const [filteringText, setFilteringText] = useState('');
  const [query, setQuery] = useState('');
  const filter = useMemo<PageFilter<typeof routes.listExternalUsers>>(() => (query ? { query } : {}), [query]);
  const users = useCursorPages(routes.listExternalUsers, filter, PAGE_SIZE);
  const listExport = useListExport('suppliers', filter);

  const [selected, setSelected] = useState<ExternalUser[]>([]);
  const [bulkBusy, setBulkBusy] = useState<boolean | null>(null);
  /** The bulk change of e-mail reception being confirmed: true turns it on, false off. */
  const [confirmingBulk, setConfirmingBulk] = useState<boolean | null>(null);
  const [pendingReception, setPendingReception] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [creating, setCreating] = useState(false);
  const [confirming, setConfirming] = useState<{ user: ExternalUser; action: ConfirmableAction } | null>(null);
  const [history, setHistory] = useState<ExternalUser | null>(null);

  /** After any change: the table from the server, and no stale history. */
  const refreshAfterChange = async () => {
    await forgetRoute(routes.listAuditEvents);
    await users.refresh();
  };

  const search = (value: string) => {
    const next = value.trim();
    if (next === query) return;
    setSelected([]);
    setQuery(next);
  };

  const changeReception = async (user: ExternalUser, include: boolean) => {
    setPendingReception((current) => new Map(current).set(user.id, include));
    try {
      await apiCall(routes.whitelistNotifications, {
        path: { userId: user.id },
        query: { include: include ? 'true' : 'false' },
      });
      feedback.success(include ? text.reception.on(user.email) : text.reception.off(user.email));
      await refreshAfterChange();
    } catch (error) {
      feedback.error(error);
    } finally {
      setPendingReception((current) => {
        const next = new Map(current);
        next.delete(user.id);
        return next;
      });
    }
  };

  const changeReceptionInBulk = async (include: boolean) => {
    if (selected.length === 0) return;
    setBulkBusy(include);
    try {
      const { results } = await apiCall(routes.whitelistNotificationsBulk, {
        query: { include: include ? 'true' : 'false' },
        body: { userIds: selected.map((user) => user.id) },
      });
      const succeeded = results.filter((result) => result.ok).length;
      const failures = results
        .filter((result) => !result.ok)
        .map((result) => {
          const email = selected.find((user) => user.id === result.userId)?.email ?? result.userId;
          return text.reception.failure(email, bulkFailureReason(result));
        });
      if (succeeded > 0) feedback.success(text.reception.bulkDone(include, succeeded));
      if (failures.length > 0) feedback.error(text.reception.bulkFailed(include, failures.join('; ')));
      await refreshAfterChange();
    } catch (error) {
      feedback.error(error);
    } finally {
      setBulkBusy(null);
    }
  };

  const onAction = (user: ExternalUser, action: SupplierAction) => {
    if (action === 'history') setHistory(user);
    else setConfirming({ user, action });
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
    onAction,
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
        ariaLabels={{
          tableLabel: text.tableLabel,
          selectionGroupLabel: text.selection.group,
          allItemsSelectionLabel: () => text.selection.all,
          itemSelectionLabel: (_, user) => text.selection.one(user.email),
        }}
        header={
          <SpaceBetween size="s">
            <Header
              variant="awsui-h1-sticky"
              description={text.description}
              counter={noSelection ? undefined : `(${text.selection.count(selected.length)})`}
              actions={
                <SpaceBetween direction="horizontal" size="xs">
                  <Button
                    iconName="refresh"
                    ariaLabel={adminMessages.refresh}
                    loading={users.isRefreshing}
                    onClick={() => void users.refresh()}
                  />
                  {listExport.button}
                  <Button
                    disabled={noSelection || bulkBusy !== null}
                    disabledReason={noSelection ? text.reception.bulkNeedsSelection : undefined}
                    loading={bulkBusy === false}
                    onClick={() => setConfirmingBulk(false)}
                  >
                    {text.reception.bulkOff}
                  </Button>
                  <Button
                    disabled={noSelection || bulkBusy !== null}
                    disabledReason={noSelection ? text.reception.bulkNeedsSelection : undefined}
                    loading={bulkBusy === true}
                    onClick={() => setConfirmingBulk(true)}
                  >
                    {text.reception.bulkOn}
                  </Button>
                  <Button variant="primary" onClick={() => setCreating(true)}>
                    {text.create.action}
                  </Button>
                </SpaceBetween>
              }
            >
              {text.title}
            </Header>
            {listExport.alert}
          </SpaceBetween>
        }
        filter={
          <div style={{ maxWidth: 480 }}>
            <TextFilter
              filteringText={filteringText}
              filteringPlaceholder={text.search.placeholder}
              filteringAriaLabel={text.search.ariaLabel}
              filteringClearAriaLabel={text.search.clear}
              onChange={({ detail }) => {
                setFilteringText(detail.filteringText);
                if (detail.filteringText === '') search('');
              }}
              onDelayedChange={({ detail }) => search(detail.filteringText)}
            />
          </div>
        }
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
        <DecisionModal
          header={text.reception.bulkConfirm.title(confirmingBulk)}
          confirmLabel={text.reception.bulkConfirm.confirm(confirmingBulk)}
          closeAriaLabel={adminMessages.closeModal}
          onConfirm={async () => {
            await changeReceptionInBulk(confirmingBulk);
            setConfirmingBulk(null);
          }}
          onDismiss={() => setConfirmingBulk(null)}
          testId="confirm-bulk-reception"
        >
          <SpaceBetween size="s">
            <Box variant="p">
              {text.reception.bulkConfirm.question(
                confirmingBulk,
                selected.length,
                new Set(selected.map((user) => user.taxId)).size,
              )}
            </Box>
            <Box variant="p" color="text-body-secondary">
              {text.reception.bulkConfirm.detail(confirmingBulk)}
            </Box>
          </SpaceBetween>
        </DecisionModal>
      )}
      {creating && <CreateSupplierModal onDismiss={() => setCreating(false)} onCreated={onCreated} />}
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
}

import { useState, type ReactNode } from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { CLIENT_MESSAGES, formatErrorMessage, routes, type BulkUserResult, type ExternalUser } from '@portal/shared';
import { apiCall } from '../../api/client';
import { useFeedback } from '../../feedback/feedback';
import { adminMessages } from '../admin-shared/messages';
import { DecisionModal } from '../../components/decision-modal';
import { suppliersMessages } from './messages';

const text = suppliersMessages;

/** Why one account of a bulk change failed, by spec §8's display rule (its code, else unexpected). */
function bulkFailureReason(result: BulkUserResult): string {
  const code = result.error?.code;
  return code ? formatErrorMessage(code) : CLIENT_MESSAGES.unexpected;
}

/** E-mail reception turned on or off, for one account (while it is sent) or the selected ones. */
export function useReceptionChanges(selected: readonly ExternalUser[], refreshAfterChange: () => Promise<void>) {
  const feedback = useFeedback();
  const [bulkBusy, setBulkBusy] = useState<boolean | null>(null);
  const [pendingReception, setPendingReception] = useState<ReadonlyMap<string, boolean>>(new Map());
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
  return { pendingReception, bulkBusy, changeReception, changeReceptionInBulk };
}

/** The list's actions: refresh, export, e-mail reception of the selected accounts, and a new account. */
export function SuppliersActions({
  refreshing,
  onRefresh,
  exportButton,
  noSelection,
  bulkBusy,
  onBulk,
  onCreate,
}: {
  refreshing: boolean;
  onRefresh: () => void;
  exportButton: ReactNode;
  noSelection: boolean;
  bulkBusy: boolean | null;
  onBulk: (include: boolean) => void;
  onCreate: () => void;
}) {
  return (
    <SpaceBetween direction="horizontal" size="xs">
      <Button iconName="refresh" ariaLabel={adminMessages.refresh} loading={refreshing} onClick={onRefresh} />
      {exportButton}
      <Button
        disabled={noSelection || bulkBusy !== null}
        disabledReason={noSelection ? text.reception.bulkNeedsSelection : undefined}
        loading={bulkBusy === false}
        onClick={() => onBulk(false)}
      >
        {text.reception.bulkOff}
      </Button>
      <Button
        disabled={noSelection || bulkBusy !== null}
        disabledReason={noSelection ? text.reception.bulkNeedsSelection : undefined}
        loading={bulkBusy === true}
        onClick={() => onBulk(true)}
      >
        {text.reception.bulkOn}
      </Button>
      <Button variant="primary" onClick={onCreate}>
        {text.create.action}
      </Button>
    </SpaceBetween>
  );
}

/** The bulk change of e-mail reception, confirmed: how many accounts of how many suppliers it changes. */
export function BulkReceptionModal({
  include,
  selected,
  onConfirm,
  onDismiss,
}: {
  include: boolean;
  selected: readonly ExternalUser[];
  onConfirm: () => Promise<void>;
  onDismiss: () => void;
}) {
  return (
    <DecisionModal
      header={text.reception.bulkConfirm.title(include)}
      confirmLabel={text.reception.bulkConfirm.confirm(include)}
      closeAriaLabel={adminMessages.closeModal}
      onConfirm={onConfirm}
      onDismiss={onDismiss}
      testId="confirm-bulk-reception"
    >
      <SpaceBetween size="s">
        <Box variant="p">
          {text.reception.bulkConfirm.question(
            include,
            selected.length,
            new Set(selected.map((user) => user.taxId)).size,
          )}
        </Box>
        <Box variant="p" color="text-body-secondary">
          {text.reception.bulkConfirm.detail(include)}
        </Box>
      </SpaceBetween>
    </DecisionModal>
  );
}

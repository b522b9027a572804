import { useCallback, useMemo, useState } from 'react';
import { routes, type Notification } from '@portal/shared';
import { apiCall } from '../../api/client';
import { useApi } from '../../api/use-api';
import { useFeedback } from '../../feedback/feedback';
import { invoiceDetailHref, invoicesSearchHref } from '../../layout/header/invoice-links';

/** New events reach the feed through a queue: the header looks again every minute and on focus. */
const REFRESH_INTERVAL_MS = 60_000;

/**
 * The notification's invoice: its detail beside the list filtered to it, or only the filtered list when the
 * notification does not say whose invoice it is; null when it names none.
 */
export function notificationHref(notification: Notification): string | null {
  const { issuerTaxId, invoiceType, invoiceId } = notification.reference ?? {};
  if (!invoiceId) return null;
  const list = invoicesSearchHref(invoiceId);
  if (!issuerTaxId || !invoiceType) return list;
  return invoiceDetailHref(
    { supplierId: issuerTaxId, type: invoiceType, id: invoiceId },
    list.slice(list.indexOf('?')),
  );
}

/** Newest first, whatever order the answer came in. */
function newestFirst(items: readonly Notification[]): Notification[] {
  return [...items].sort((a, b) => b.registeredAt.localeCompare(a.registeredAt));
}

/**
 * The user's recent notifications (GET /notifications), shared by the header's panel and the
 * notifications screen: one SWR key, so marking them read in one place updates the other.
 */
export function useNotifications() {
  const feedback = useFeedback();
  const { data, error, isLoading, isValidating, mutate } = useApi(
    routes.listNotifications,
    {},
    { refreshInterval: REFRESH_INTERVAL_MS },
  );
  const [marking, setMarking] = useState(false);
  const items = useMemo(() => newestFirst(data?.items ?? []), [data]);
  const unread = items.filter((item) => !item.isRead).length;

  /** Marks as read everything up to the newest notification shown (not what arrived since). */
  const markAllAsRead = useCallback(async (): Promise<boolean> => {
    const newest = items[0];
    if (!newest) return false;
    setMarking(true);
    try {
      await apiCall(routes.markNotificationsAsRead, { body: { upTo: newest.registeredAt } });
      await mutate(
        (current) =>
          current && {
            ...current,
            items: current.items.map((item) =>
              item.registeredAt <= newest.registeredAt ? { ...item, isRead: true } : item,
            ),
          },
        { revalidate: true },
      );
      return true;
    } catch (failure) {
      feedback.error(failure);
      return false;
    } finally {
      setMarking(false);
    }
  }, [items, mutate, feedback]);

  return {
    items,
    unread,
    error,
    isLoading,
    isRefreshing: isValidating && !isLoading,
    marking,
    refresh: () => mutate(),
    markAllAsRead,
  };
}

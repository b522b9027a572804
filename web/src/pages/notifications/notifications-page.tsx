import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table, { type TableProps } from '@cloudscape-design/components/table';
import { formatDateTime, type Notification } from '@portal/shared';
import { useFeedback } from '../../feedback/feedback';
import { TableEmptyState } from '../../components/table-empty-state';
import { notificationMessages as text } from './messages';
import { notificationHref, useNotifications } from './use-notifications';
import { NotificationPreferencesModal } from './notification-preferences';
import './notification-preferences.css';
import { ActionLink } from '../../components/action-link';
import { RefreshButton } from '../../components/refresh-button';

function columns(follow: (href: string) => void): TableProps.ColumnDefinition<Notification>[] {
  return [
    {
      id: 'state',
      header: text.columns.state,
      minWidth: 110,
      cell: (item) =>
        item.isRead ? <Box color="text-body-secondary">{text.read}</Box> : <Badge color="blue">{text.unread}</Badge>,
    },
    {
      id: 'date',
      header: text.columns.date,
      minWidth: 140,
      cell: (item) => <time dateTime={item.registeredAt}>{formatDateTime(item.registeredAt, { zone: true })}</time>,
    },
    {
      id: 'message',
      header: text.columns.message,
      isRowHeader: true,
      cell: (item) => (
        <Box fontWeight={item.isRead ? 'normal' : 'bold'} data-testid="notification-message">
          {item.message}
        </Box>
      ),
    },
    {
      id: 'invoice',
      header: text.columns.invoice,
      cell: (item) => {
        const href = notificationHref(item);
        const invoice = item.reference?.invoiceId;
        if (!href || !invoice) return text.noInvoice;
        return (
          <ActionLink href={href} ariaLabel={text.openInvoice(invoice)} onFollow={() => follow(href)}>
            {invoice}
          </ActionLink>
        );
      },
    },
  ];
}

/** '/notifications': the user's feed, newest first, read and unread, with 'mark all read' (spec §2). */
export default function NotificationsPage() {
  const navigate = useNavigate();
  const feedback = useFeedback();
  const notifications = useNotifications();
  const { items, unread, error, isLoading } = notifications;
  const [choosing, setChoosing] = useState(false);

  const markAll = async () => {
    if (await notifications.markAllAsRead()) feedback.success(text.markedAsRead);
  };

  return (
    <>
      <NotificationPreferencesModal
        visible={choosing}
        onDismiss={() => setChoosing(false)}
        onSaved={() => void notifications.refresh()}
      />
      <Table
        variant="full-page"
        stickyHeader
        wrapLines
        ariaLabels={{ tableLabel: text.tableLabel }}
        header={
          <Header
            variant="awsui-h1-sticky"
            description={text.description}
            counter={isLoading || error ? undefined : text.unreadCounter(unread, items.length)}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <RefreshButton ariaLabel={text.refresh} list={notifications} />
                <Button iconName="settings" onClick={() => setChoosing(true)}>
                  {text.openPreferences}
                </Button>
                <Button
                  variant="primary"
                  iconName="check"
                  disabled={unread === 0}
                  loading={notifications.marking}
                  onClick={() => void markAll()}
                >
                  {text.markAllAsRead}
                </Button>
              </SpaceBetween>
            }
          >
            {text.title}
          </Header>
        }
        columnDefinitions={columns((href) => navigate(href))}
        items={error ? [] : items}
        trackBy="id"
        loading={isLoading}
        loadingText={text.loading}
        empty={
          <TableEmptyState
            testId="notifications"
            error={error}
            errorText={text.loadError}
            onRetry={notifications.refresh}
            message={text.empty}
          />
        }
      />
    </>
  );
}

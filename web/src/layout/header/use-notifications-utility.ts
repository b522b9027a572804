import type { ButtonDropdownProps } from '@cloudscape-design/components/button-dropdown';
import type { TopNavigationProps } from '@cloudscape-design/components/top-navigation';
import { useNavigate } from 'react-router-dom';
import { formatDateTime } from '@portal/shared';
import { notificationMessages } from '../../pages/notifications/messages';
import { notificationHref, useNotifications } from '../../pages/notifications/use-notifications';
import { headerMessages } from './messages';

const text = headerMessages.notifications;
/** How many notifications the panel lists; the notifications screen shows the whole feed. */
const PANEL_SIZE = 8;
const MARK_AS_READ = 'mark-as-read';
const SEE_ALL = 'see-all';
const NOTIFICATIONS_PATH = '/notifications';

/**
 * The recent-notifications panel of the header (spec §2): a bell with the unread count, the newest
 * notifications each linking to its invoice, 'marcar como leídas' and a link to the whole feed.
 *
 * On a phone the bell sits in the «Opciones» menu, whose submenus show a copy taken when they open (a feed still
 * loading would read «Cargando…» until reopened): there it is a link to the notifications screen, with the count.
 */
export function useNotificationsUtility(
  narrow: boolean,
): TopNavigationProps.MenuDropdownUtility | TopNavigationProps.ButtonUtility {
  const navigate = useNavigate();
  const { items, unread, error, isLoading, marking, markAllAsRead } = useNotifications();
  if (narrow) {
    return {
      type: 'button',
      iconName: 'notification',
      text: text.text(unread),
      title: text.title,
      ariaLabel: text.ariaLabel(unread),
      badge: unread > 0,
      href: NOTIFICATIONS_PATH,
      onFollow: (event) => {
        event.preventDefault();
        navigate(NOTIFICATIONS_PATH);
      },
    };
  }

  let feed: ButtonDropdownProps.Item[];
  if (isLoading) {
    feed = [{ id: 'status', text: text.loading, disabled: true }];
  } else if (error) {
    feed = [{ id: 'status', text: notificationMessages.loadError, disabled: true, iconName: 'status-negative' }];
  } else if (items.length === 0) {
    feed = [{ id: 'status', text: notificationMessages.empty, disabled: true }];
  } else {
    feed = items.slice(0, PANEL_SIZE).map((notification) => {
      const href = notificationHref(notification);
      return {
        id: `notification:${notification.id}`,
        text: notification.message,
        secondaryText: formatDateTime(notification.registeredAt, { zone: true }),
        labelTag: notification.isRead ? undefined : text.newBadge,
        ...(href ? { href } : { disabled: true }),
      };
    });
  }

  return {
    type: 'menu-dropdown',
    iconName: 'notification',
    text: text.text(unread),
    title: text.title,
    description: error ? undefined : text.unread(unread),
    ariaLabel: text.ariaLabel(unread),
    badge: unread > 0,
    // Flat on purpose: the overflow menu of narrow screens folds every group behind a toggle.
    items: [
      ...feed,
      { id: MARK_AS_READ, text: text.markAsRead, iconName: 'check', disabled: unread === 0 || marking },
      { id: SEE_ALL, text: text.seeAll, iconName: 'angle-right', href: NOTIFICATIONS_PATH },
    ],
    onItemClick: ({ detail }) => {
      if (detail.id === MARK_AS_READ && unread > 0 && !marking) void markAllAsRead();
    },
    onItemFollow: (event) => {
      if (!event.detail.href) return;
      event.preventDefault();
      navigate(event.detail.href);
    },
  };
}

import type { TopNavigationProps } from '@cloudscape-design/components/top-navigation';
import { useNavigate } from 'react-router-dom';
import { routes, type Level } from '@portal/shared';
import { useApi } from '../../api/use-api';
import { headerMessages } from './messages';

const text = headerMessages.conversations;
/** How often the header asks again (a message posted in this tab refreshes it at once). */
const REFRESH_MS = 60_000;

/**
 * The header's count of invoices whose conversation waits on the user: for a supplier, the invoices staff
 * observed or wrote on last, linked to its "Observadas"; for staff, those whose supplier wrote last.
 */
export function useConversationsUtility(level: Level): TopNavigationProps.ButtonUtility {
  const navigate = useNavigate();
  const waiting = useApi(routes.countWaitingConversations, {}, { refreshInterval: REFRESH_MS });
  const count = waiting.data?.count ?? 0;
  const href = level === 'SUPPLIER' ? '/invoices?observed=true' : '/invoices';
  return {
    type: 'button',
    iconName: 'contact',
    text: text.text(count),
    title: text.title,
    ariaLabel: text.ariaLabel(count),
    badge: count > 0,
    href,
    onFollow: (event) => {
      event.preventDefault();
      navigate(href);
    },
  };
}

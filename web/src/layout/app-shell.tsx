import { useMemo, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import AppLayout from '@cloudscape-design/components/app-layout';
import Box from '@cloudscape-design/components/box';
import SideNavigation, { type SideNavigationProps } from '@cloudscape-design/components/side-navigation';
import TopNavigation, { type TopNavigationProps } from '@cloudscape-design/components/top-navigation';
import { APP_VERSION, LEVEL_LABELS, parseTaxIds, type SessionUser } from '@portal/shared';
import { messages } from '../messages';
import { PATHS } from '../routing/guard';
import { navigationFor } from '../routing/routes';
import { chooseCompany, resolveActiveCompany, useChosenCompany } from '../session/active-company';
import { useSignOut } from '../session/use-current-user';
import { useClients } from '../hooks/use-clients';
import { useNarrowScreen } from '../hooks/use-narrow-screen';
import { FeedbackMessages } from '../feedback/feedback';
import { ChatAssistant } from '../chat/chat-assistant';
import { HeaderSearch } from './header/header-search';
import { INVOICES_PATH } from './header/invoice-links';
import { headerMessages } from './header/messages';
import { useStatusLegend } from './header/status-legend';
import { useNotificationsUtility } from './header/use-notifications-utility';
import { useConversationsUtility } from './header/use-conversations-utility';
import { useSteadyUtilities } from './header/use-steady-utilities';
import { useNavigationWithoutOrientation } from './navigation-aria';
import { SidePanelProvider, useSidePanel, useSidePanelState } from './side-panel';

const HEADER_ID = 'portal-top-navigation';
const SIGN_OUT_ITEM = 'sign-out';
const VERSION_ITEM = 'version';
const COMPANY_ITEM_PREFIX = 'company:';

/** Which menu entry a path belongs to: the home path and an invoice's address are the invoices screen. */
function activeHrefFor(pathname: string): string {
  return pathname === PATHS.home || pathname.startsWith(`${INVOICES_PATH}/`) ? INVOICES_PATH : pathname;
}

function useCompanyUtility(user: SessionUser): TopNavigationProps.Utility | null {
  const chosen = useChosenCompany();
  const { clients } = useClients();
  const taxIds = parseTaxIds(user.taxId);
  if (taxIds.length < 2) return null;
  const active = resolveActiveCompany(taxIds, chosen);
  const nameOf = (taxId: string) => clients.find((client) => client.taxId === taxId)?.name ?? taxId;
  return {
    type: 'menu-dropdown',
    text: messages.shell.companyMenu(active ? nameOf(active) : ''),
    title: messages.shell.companyLabel,
    ariaLabel: messages.shell.companyLabel,
    iconName: 'settings',
    items: taxIds.map((taxId) => ({
      id: `${COMPANY_ITEM_PREFIX}${taxId}`,
      text: nameOf(taxId),
      secondaryText: taxId,
      iconName: taxId === active ? 'check' : undefined,
    })),
    onItemClick: ({ detail }) => {
      if (detail.id.startsWith(COMPANY_ITEM_PREFIX)) chooseCompany(detail.id.slice(COMPANY_ITEM_PREFIX.length));
    },
  };
}

/** The frame of every signed-in screen: top navigation over the app layout with the role's menu. */
export function AppShell(props: { user: SessionUser; children: ReactNode }) {
  return (
    <SidePanelProvider>
      <Shell {...props} />
    </SidePanelProvider>
  );
}

function Shell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const sidePanel = useSidePanel();
  const sidePanelState = useSidePanelState();
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = useSignOut();
  const companyUtility = useCompanyUtility(user);
  const narrow = useNarrowScreen();
  const notificationsUtility = useNotificationsUtility(narrow);
  const conversationsUtility = useConversationsUtility(user.level);
  const legend = useStatusLegend();
  useNavigationWithoutOrientation();
  const fullName = `${user.firstName} ${user.lastName}`.trim() || user.email;

  const navItems = useMemo<SideNavigationProps.Item[]>(
    () => navigationFor(user.level).map((entry) => ({ type: 'link', text: entry.label, href: entry.href })),
    [user.level],
  );

  const userUtility: TopNavigationProps.Utility = {
    type: 'menu-dropdown',
    text: fullName,
    description: `${user.email} · ${messages.shell.userMenuDescription(LEVEL_LABELS[user.level])}`,
    iconName: 'user-profile',
    items: [
      { id: VERSION_ITEM, text: messages.shell.version(APP_VERSION), disabled: true },
      { id: SIGN_OUT_ITEM, text: messages.shell.signOut },
    ],
    onItemClick: ({ detail }) => {
      if (detail.id === SIGN_OUT_ITEM) {
        // Spec §2: sign-out returns to the root path, whose guard then shows the login.
        void signOut().then(() => navigate(PATHS.home, { replace: true }));
      }
    },
  };

  const utilities = useSteadyUtilities(
    [
      conversationsUtility,
      notificationsUtility,
      legend.utility,
      ...(companyUtility ? [companyUtility] : []),
      userUtility,
    ],
    narrow,
  );

  const followLink = (event: CustomEvent<{ href: string; external?: boolean }>) => {
    if (event.detail.external) return;
    event.preventDefault();
    navigate(event.detail.href);
  };

  return (
    <>
      <div id={HEADER_ID} style={{ position: 'sticky', top: 0, zIndex: 1002 }}>
        <TopNavigation
          identity={{
            title: messages.app.title,
            href: PATHS.home,
            onFollow: (event) => {
              event.preventDefault();
              navigate(PATHS.home);
            },
          }}
          search={<HeaderSearch searchesSuppliers={user.level === 'MANAGER' || user.level === 'ADMIN'} />}
          utilities={utilities}
          i18nStrings={{
            searchIconAriaLabel: headerMessages.search.open,
            searchDismissIconAriaLabel: headerMessages.search.close,
            overflowMenuTriggerText: messages.shell.overflowMenuTrigger,
            overflowMenuTitleText: messages.shell.overflowMenuTitle,
            overflowMenuBackIconAriaLabel: messages.shell.overflowMenuBack,
            overflowMenuDismissIconAriaLabel: messages.shell.overflowMenuDismiss,
          }}
        />
      </div>
      <AppLayout
        headerSelector={`#${HEADER_ID}`}
        // The invoices list is a full-page table: it takes the whole width of a wide screen.
        contentType={activeHrefFor(location.pathname) === INVOICES_PATH ? 'table' : 'default'}
        toolsHide={!sidePanelState.content}
        tools={sidePanelState.content}
        toolsOpen={Boolean(sidePanelState.content)}
        toolsWidth={480}
        onToolsChange={({ detail }) => {
          if (!detail.open) sidePanel.dismiss();
        }}
        ariaLabels={{
          tools: sidePanelState.label,
          toolsClose: messages.shell.closePanel,
          navigation: messages.shell.navigationHeader,
          navigationClose: messages.shell.closeNavigation,
          navigationToggle: messages.shell.openNavigation,
          notifications: messages.shell.notifications,
        }}
        navigation={
          <>
            <SideNavigation
              header={{ text: messages.shell.navigationHeader, href: PATHS.home }}
              activeHref={activeHrefFor(location.pathname)}
              items={navItems}
              onFollow={followLink}
            />
            <Box padding={{ horizontal: 'l', vertical: 'm' }} color="text-status-inactive" fontSize="body-s">
              <span data-testid="app-version">{messages.app.version}</span>
            </Box>
          </>
        }
        notifications={<FeedbackMessages />}
        content={children}
      />
      {legend.dialog}
      <div className={sidePanelState.content ? 'portal-chat portal-chat--beside-panel' : 'portal-chat'}>
        <ChatAssistant user={user} />
      </div>
    </>
  );
}

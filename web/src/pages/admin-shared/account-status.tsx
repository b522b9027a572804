import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { USER_STATUS_LABELS } from '@portal/shared';
import { adminMessages } from './messages';

const INDICATOR: Readonly<Record<string, StatusIndicatorProps.Type>> = {
  CONFIRMED: 'success',
  EXTERNAL_PROVIDER: 'success',
  FORCE_CHANGE_PASSWORD: 'pending',
  RESET_REQUIRED: 'warning',
  UNCONFIRMED: 'pending',
  COMPROMISED: 'error',
  ARCHIVED: 'stopped',
};

/** An account's state in Spanish: disabled first (it cannot sign in whatever Cognito's state), else Cognito's. */
export function AccountStatus({ user }: { user: { enabled: boolean; status: string } }) {
  if (!user.enabled) {
    return (
      <StatusIndicator type="stopped">
        <span data-testid="account-status">{adminMessages.account.disabled}</span>
      </StatusIndicator>
    );
  }
  return (
    <StatusIndicator type={INDICATOR[user.status] ?? 'info'}>
      <span data-testid="account-status">{USER_STATUS_LABELS[user.status] ?? user.status}</span>
    </StatusIndicator>
  );
}

import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { errorMessage } from '../api/client';
import { messages } from '../messages';

export interface TableEmptyStateProps {
  /** What the table says when it has no rows. */
  readonly message: string;
  /** A second line under the message (e.g. that the filters may hide rows). */
  readonly detail?: string | undefined;
  /** A button under the message (e.g. clearing the filters). */
  readonly action?: { readonly text: string; readonly onClick: () => void } | undefined;
  /** A failed read: shown instead of the message, with a button to ask again. */
  readonly error?: Error | undefined;
  /** The error's text when not the error's own message. */
  readonly errorText?: string | undefined;
  readonly onRetry?: (() => unknown) | undefined;
  /** Marks the error and the message for the browser tests (`<testId>-error`, `<testId>-empty`). */
  readonly testId?: string | undefined;
}

/** What a table shows in Cloudscape's `empty` slot: why it has no rows, or the error that left it empty. */
export function TableEmptyState({ message, detail, action, error, errorText, onRetry, testId }: TableEmptyStateProps) {
  if (error) {
    return (
      <Box textAlign="center" padding="m">
        <SpaceBetween size="s">
          <StatusIndicator type="error">
            <span data-testid={testId && `${testId}-error`}>{errorText ?? errorMessage(error)}</span>
          </StatusIndicator>
          {onRetry && <Button onClick={() => void onRetry()}>{messages.table.retry}</Button>}
        </SpaceBetween>
      </Box>
    );
  }
  return (
    <Box textAlign="center" color="inherit" padding="m">
      <SpaceBetween size="s">
        <span data-testid={testId && `${testId}-empty`}>{message}</span>
        {detail && <span>{detail}</span>}
        {action && (
          <Box>
            <Button onClick={action.onClick}>{action.text}</Button>
          </Box>
        )}
      </SpaceBetween>
    </Box>
  );
}

import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Spinner from '@cloudscape-design/components/spinner';
import { messages } from '../messages';

/** Shown while a screen's chunk or the session check loads. */
export function PageLoading({ text = messages.app.loading }: { text?: string }) {
  return (
    <div role="status">
      <Box textAlign="center" padding={{ vertical: 'xxxl' }}>
        <Spinner size="large" />
        <Box variant="p" color="text-status-inactive">
          {text}
        </Box>
      </Box>
    </div>
  );
}

/** Route-level error boundary: typically a chunk that failed to download after a new deployment. */
export function RouteErrorPage() {
  return (
    <Box padding="xxl">
      <Alert type="error" action={<Button onClick={() => window.location.reload()}>{messages.app.reload}</Button>}>
        {messages.app.pageLoadError}
      </Alert>
    </Box>
  );
}

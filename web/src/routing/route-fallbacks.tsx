import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Spinner from '@cloudscape-design/components/spinner';
import { HoldStaticFrame, staticFrameShown } from '../layout/static-frame';
import { messages } from '../messages';

/**
 * Shown while a screen's chunk or the session check loads. `keepFrame`: before the app's first screen (the guard's
 * check, a public screen's chunk), index.html's frame stays on screen in its place (layout/static-frame.tsx), instead
 * of a blank page with a spinner between the frame and the screen.
 */
export function PageLoading({
  text = messages.app.loading,
  keepFrame = false,
}: {
  text?: string;
  keepFrame?: boolean;
}) {
  if (keepFrame && staticFrameShown()) return <HoldStaticFrame />;
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

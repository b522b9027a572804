import Box from '@cloudscape-design/components/box';
import { messages } from '../messages';

/** Under the sign-in and forbidden cards: the portal's name and the version running. */
export function AppVersionFooter() {
  return (
    <Box textAlign="center" padding={{ top: 'l' }} color="text-status-inactive" fontSize="body-s">
      {messages.app.title} · {messages.app.version}
    </Box>
  );
}

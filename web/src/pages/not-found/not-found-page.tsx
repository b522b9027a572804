import { Link as RouterLink } from 'react-router-dom';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import { messages } from '../../messages';
import { PATHS } from '../../routing/guard';

/** Any path outside the route table. */
export default function NotFoundPage() {
  return (
    <Box padding="xxl">
      <Container header={<Header variant="h1">{messages.app.notFoundTitle}</Header>}>
        <Box variant="p">{messages.app.notFoundText}</Box>
        <RouterLink to={PATHS.home}>{messages.app.goHome}</RouterLink>
      </Container>
    </Box>
  );
}

import { useNavigate } from 'react-router-dom';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { messages } from '../../messages';
import { PATHS } from '../../routing/guard';
import { useSignOut } from '../../session/use-current-user';
import { AppVersionFooter } from '../../components/app-version-footer';

/** The frame the three forbidden pages share: a message and a way back to the login. */
export function ForbiddenView({ title, text }: { title: string; text: string }) {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const leave = async () => {
    await signOut();
    navigate(PATHS.login, { replace: true });
  };
  return (
    <Box padding={{ vertical: 'xxxl', horizontal: 'l' }}>
      <div style={{ maxWidth: 560, margin: '0 auto' }}>
        <Container header={<Header variant="h1">{title}</Header>}>
          <SpaceBetween size="l">
            <Box variant="p">{text}</Box>
            <SpaceBetween direction="horizontal" size="xs">
              <Button variant="primary" onClick={() => void leave()}>
                {messages.forbidden.signOut}
              </Button>
              <Button variant="link" onClick={() => navigate(PATHS.login)}>
                {messages.forbidden.goToLogin}
              </Button>
            </SpaceBetween>
          </SpaceBetween>
        </Container>
        <AppVersionFooter />
      </div>
    </Box>
  );
}

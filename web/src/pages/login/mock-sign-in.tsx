import { useLocation, useNavigate } from 'react-router-dom';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { messages } from '../../messages';
import { MOCK_PERSONAS, type MockPersona } from '../../mock/personas';
import { PATHS } from '../../routing/guard';
import { returnPathOf } from '../../routing/return-to';
import { startMockSession } from '../../session/mock-session';
import { useStartSession } from '../../session/use-current-user';

/**
 * The login on the mock provider: no identity service, the user picks the role to play (one per level, and the
 * two the navigation guard stops), and the app starts its session as after a real sign-in.
 */
export function MockSignIn() {
  const navigate = useNavigate();
  const location = useLocation();
  const startSession = useStartSession();

  const enterAs = async (persona: MockPersona) => {
    startMockSession({ personaId: persona.id, taxId: persona.user.taxId });
    await startSession();
    navigate(returnPathOf(location.state) ?? PATHS.home, { replace: true });
  };

  return (
    <SpaceBetween size="l">
      <Alert type="info">{messages.mockLogin.notice}</Alert>
      {MOCK_PERSONAS.map((persona) => (
        <SpaceBetween key={persona.id} size="xxs">
          <Button fullWidth onClick={() => void enterAs(persona)} data-testid={`mock-sign-in-${persona.id}`}>
            {messages.mockLogin.enterAs(persona.label)}
          </Button>
          <Box color="text-body-secondary" fontSize="body-s">
            {persona.description}
          </Box>
        </SpaceBetween>
      ))}
    </SpaceBetween>
  );
}

import type { FormEvent, ReactNode } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { messages } from '../../messages';

/**
 * The frame of the login's secondary steps (reset request, reset code, first-sign-in password): a
 * titled form with 'Volver a iniciar sesión', extra actions and the submit button, and the step's
 * outcome above its fields.
 */
export function LoginStepForm(props: {
  title: string;
  description: string;
  submitText: string;
  busy: boolean;
  submitDisabled?: boolean;
  onSubmit: () => Promise<void>;
  onBack: () => void;
  extraActions?: ReactNode;
  outcome?: { type: 'success' | 'error'; text: string; testId: string } | null;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void props.onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Form
        header={
          <Header variant="h2" description={props.description}>
            {props.title}
          </Header>
        }
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            <Button formAction="none" variant="link" onClick={props.onBack}>
              {messages.resetPassword.cancel}
            </Button>
            {props.extraActions}
            <Button variant="primary" formAction="submit" loading={props.busy} disabled={props.submitDisabled}>
              {props.submitText}
            </Button>
          </SpaceBetween>
        }
      >
        <SpaceBetween size="l">
          {props.outcome && (
            <Alert type={props.outcome.type}>
              <span data-testid={props.outcome.testId}>{props.outcome.text}</span>
            </Alert>
          )}
          {props.children}
        </SpaceBetween>
      </Form>
    </form>
  );
}

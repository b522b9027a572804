import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { messages } from '../../messages';

/** A new password and its repetition, with the pool's policy as the constraint text. */
export function NewPasswordFields(props: {
  password: string;
  repeated: string;
  onPassword: (value: string) => void;
  onRepeated: (value: string) => void;
  errors: { password?: string; repeated?: string };
}) {
  return (
    <SpaceBetween size="l">
      <FormField
        label={messages.newPassword.passwordLabel}
        constraintText={messages.newPassword.constraint}
        errorText={props.errors.password}
      >
        <Input
          type="password"
          name="new-password"
          autoComplete="new-password"
          value={props.password}
          onChange={({ detail }) => props.onPassword(detail.value)}
          invalid={Boolean(props.errors.password)}
        />
      </FormField>
      <FormField label={messages.newPassword.repeatLabel} errorText={props.errors.repeated}>
        <Input
          type="password"
          name="repeat-password"
          autoComplete="new-password"
          value={props.repeated}
          onChange={({ detail }) => props.onRepeated(detail.value)}
          invalid={Boolean(props.errors.repeated)}
        />
      </FormField>
    </SpaceBetween>
  );
}

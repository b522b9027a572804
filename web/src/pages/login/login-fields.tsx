import FormField from '@cloudscape-design/components/form-field';
import Input, { type InputProps } from '@cloudscape-design/components/input';

interface FieldProps {
  readonly label: string;
  readonly name: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly errorText: string | undefined;
}

/** One field of the sign-in steps: its label, its error shown under it and the input marked invalid. */
function LoginField(
  props: FieldProps & {
    type?: InputProps.Type;
    inputMode?: InputProps.InputMode;
    autoComplete: string;
    placeholder?: string;
    constraintText?: string;
    autoFocus?: boolean;
  },
) {
  return (
    <FormField label={props.label} constraintText={props.constraintText} errorText={props.errorText}>
      <Input
        type={props.type}
        inputMode={props.inputMode}
        autoComplete={props.autoComplete}
        name={props.name}
        placeholder={props.placeholder}
        value={props.value}
        onChange={({ detail }) => props.onChange(detail.value)}
        invalid={Boolean(props.errorText)}
        autoFocus={props.autoFocus}
      />
    </FormField>
  );
}

/** The e-mail field of the sign-in and reset forms: same keyboard, autofill and error display. */
export function EmailField(props: FieldProps & { placeholder?: string }) {
  return <LoginField {...props} type="email" inputMode="email" autoComplete="username" autoFocus />;
}

/** A password: the current one ('current-password') or a new one ('new-password'), for the browser's autofill. */
export function PasswordField(
  props: FieldProps & { autoComplete: 'current-password' | 'new-password'; constraintText?: string },
) {
  return <LoginField {...props} type="password" />;
}

/** The code the identity service e-mailed: digits, filled in from the message where the device can. */
export function CodeField(props: FieldProps) {
  return <LoginField {...props} inputMode="numeric" autoComplete="one-time-code" />;
}

import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';

/** The e-mail field of the sign-in and reset forms: same keyboard, autofill and error display. */
export function EmailField(props: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  errorText: string | undefined;
  placeholder?: string;
}) {
  return (
    <FormField label={props.label} errorText={props.errorText}>
      <Input
        type="email"
        inputMode="email"
        autoComplete="username"
        name={props.name}
        placeholder={props.placeholder}
        value={props.value}
        onChange={({ detail }) => props.onChange(detail.value)}
        invalid={Boolean(props.errorText)}
        autoFocus
      />
    </FormField>
  );
}

import { useState } from 'react';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import TokenGroup, { type TokenGroupProps } from '@cloudscape-design/components/token-group';
import { formatMoney } from '@portal/shared';
import type { CodeCheck } from './use-code-checks';
import { detailMessages } from './messages';

const text = detailMessages.form;

/** The bounds of UpdateInvoiceBody: a code has up to 30 characters. */
export const CODE_MAX_LENGTH = 30;

function tokenOf(code: string, check: CodeCheck | undefined): TokenGroupProps.Item {
  const base = { label: code, dismissLabel: text.remove(code) };
  switch (check?.state) {
    case undefined:
    case 'checking':
      return { ...base, description: text.checking, iconName: 'status-in-progress' };
    case 'available':
      return {
        ...base,
        iconName: 'status-positive',
        description: check.document
          ? text.availableDocument(
              formatMoney(check.document.amount, check.document.currency),
              check.document.purchaseOrder,
            )
          : text.available,
      };
    case 'held':
      return { ...base, description: text.held, iconName: 'status-info' };
    case 'unavailable':
    case 'failed':
      return { ...base, description: check.message, iconName: 'status-negative' };
  }
}

/**
 * A token input for OC, HES or MIGO codes: the user types a code and adds it with Enter or the
 * button; each token shows what the availability check answered. Errors of the rules go below.
 */
export function CodeTokens(props: {
  readonly label: string;
  /** 'OC', 'HES' or 'MIGO': names the code in placeholders and button labels. */
  readonly kind: string;
  readonly codes: readonly string[];
  readonly max: number;
  readonly checkOf: (code: string) => CodeCheck | undefined;
  readonly onAdd: (code: string) => void;
  readonly onRemove: (code: string) => void;
  readonly errorText?: string;
  readonly description?: string;
  readonly testId: string;
}) {
  const [value, setValue] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);

  const refusal = (code: string): string | null => {
    if (code.length > CODE_MAX_LENGTH) return text.tooLong(CODE_MAX_LENGTH);
    if (props.codes.includes(code)) return text.duplicate(code);
    if (props.codes.length >= props.max) return text.tooMany(props.max);
    return null;
  };

  const add = () => {
    const code = value.trim().toUpperCase();
    if (!code) return;
    const refused = refusal(code);
    setInputError(refused);
    if (refused) return;
    setValue('');
    props.onAdd(code);
  };

  return (
    <div data-testid={props.testId}>
      <FormField
        label={props.label}
        description={props.description ?? text.codesDescription}
        errorText={inputError ?? props.errorText}
        stretch
      >
        {/* The code and its button side by side, down to a phone's width. */}
        <div style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
          <div style={{ flex: 1, minWidth: 0 }}>
            <Input
              value={value}
              placeholder={text.codePlaceholder(props.kind)}
              autoComplete={false}
              spellcheck={false}
              onChange={({ detail }) => {
                setValue(detail.value);
                if (inputError) setInputError(null);
              }}
              onKeyDown={({ detail }) => {
                if (detail.key === 'Enter') add();
              }}
            />
          </div>
          <Button onClick={add} ariaLabel={text.addAria(props.kind)}>
            {text.add}
          </Button>
        </div>
      </FormField>
      {props.codes.length > 0 && (
        <TokenGroup
          alignment="vertical"
          items={props.codes.map((code) => tokenOf(code, props.checkOf(code)))}
          onDismiss={({ detail }) => {
            const code = props.codes[detail.itemIndex];
            if (code) props.onRemove(code);
          }}
        />
      )}
    </div>
  );
}

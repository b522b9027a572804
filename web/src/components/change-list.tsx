import Box from '@cloudscape-design/components/box';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { messages } from '../messages';

/** One field a change touched, as a reader compares it: a value before and after, or a list that gained and lost. */
export type ChangeLine =
  | { readonly label: string; readonly kind: 'value'; readonly before: string | null; readonly after: string }
  | {
      readonly label: string;
      readonly kind: 'list';
      readonly added: readonly string[];
      readonly removed: readonly string[];
    };

const text = messages.changes;

/**
 * The 'antes → después' of an audit record, the same in the administrators' history of an account and in an
 * invoice's Historial: 'Label: before → after' (a creation has no before), and for a list of codes or files what it
 * gained (+) and lost (−). Everything is rendered as text.
 */
export function ChangeList({ lines }: { readonly lines: readonly ChangeLine[] }) {
  if (lines.length === 0) return <>{text.noDetail}</>;
  return (
    <SpaceBetween size="xxxs">
      {lines.map((line) => (
        <div key={line.label} data-testid="change-line">
          <Box variant="span" fontWeight="bold">
            {line.label}:
          </Box>{' '}
          {line.kind === 'value' ? (
            <>
              {line.before !== null && (
                <>
                  {line.before}{' '}
                  <span role="img" aria-label={text.changesTo}>
                    →
                  </span>{' '}
                </>
              )}
              {line.after}
            </>
          ) : (
            <>
              {line.added.length > 0 && <span>{text.added(line.added.join(', '))}</span>}
              {line.added.length > 0 && line.removed.length > 0 && '; '}
              {line.removed.length > 0 && <span>{text.removed(line.removed.join(', '))}</span>}
            </>
          )}
        </div>
      ))}
    </SpaceBetween>
  );
}

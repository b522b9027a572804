import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import {
  formatMoney,
  routes,
  type ConformityKind,
  type ConformitySuggestion,
  type Currency,
  type OperationType,
  type RoutePath,
} from '@portal/shared';
import { useApi } from '../../../api/use-api';
import { detailMessages } from './messages';

const text = detailMessages.suggestions;
const SHORT_NAME: Record<ConformityKind, string> = { SERVICE_SHEET: 'HES', MATERIAL_DOCUMENT: 'MIGO' };

/** The kinds of document an operation type takes (spec §5: no HES with goods, no MIGO with services). */
function fits(kind: ConformityKind, operationType: OperationType | null): boolean {
  if (operationType === 'GOODS') return kind === 'MATERIAL_DOCUMENT';
  if (operationType === 'SERVICES') return kind === 'SERVICE_SHEET';
  return operationType !== 'WITHOUT_PURCHASE_ORDER';
}

function differenceText(suggestion: ConformitySuggestion, currency: Currency): string {
  if (suggestion.exact) return text.exact;
  const amount = formatMoney(Math.abs(suggestion.difference), currency);
  return suggestion.difference > 0 ? text.over(amount) : text.under(amount);
}

/**
 * The open HES or MIGO of the one purchase order entered that add up to the invoice amount without IGV
 * (ADR 0029), exact sums first. One click puts a suggestion's documents in the form, where
 * the availability checks and the §5 rules run on them as on codes typed by hand.
 */
export function ConformitySuggestions({
  path,
  purchaseOrder,
  operationType,
  entered,
  onApply,
}: {
  readonly path: RoutePath<typeof routes.suggestConformityDocuments>;
  readonly purchaseOrder: string;
  readonly operationType: OperationType | null;
  /** The HES and MIGO in the form: the suggestion they match shows as applied. */
  readonly entered: readonly string[];
  readonly onApply: (kind: ConformityKind, documentIds: readonly string[]) => void;
}) {
  const answer = useApi(
    routes.suggestConformityDocuments,
    { path, query: { purchaseOrder } },
    { revalidateOnFocus: false },
  );
  const data = answer.data;
  const suggestions = (data?.suggestions ?? []).filter((suggestion) => fits(suggestion.kind, operationType));
  const isApplied = (ids: readonly string[]) =>
    ids.length === entered.length && ids.every((id) => entered.includes(id));

  return (
    <div data-testid="conformity-suggestions">
      <Container
        header={
          <Header
            variant="h3"
            description={data ? text.description(formatMoney(data.target, data.currency)) : undefined}
          >
            {text.header(purchaseOrder)}
          </Header>
        }
      >
        {answer.isLoading ? (
          <StatusIndicator type="loading">{text.loading}</StatusIndicator>
        ) : answer.error || !data ? (
          <StatusIndicator type="error">{text.failed}</StatusIndicator>
        ) : suggestions.length === 0 ? (
          <Box color="text-body-secondary">
            {data.suggestions.length === 0 ? text.none : text.noneForType(operationType === 'GOODS' ? 'MIGO' : 'HES')}
          </Box>
        ) : (
          <SpaceBetween size="s">
            {suggestions.map((suggestion) => {
              const ids = suggestion.documents.map((doc) => doc.documentId);
              const applied = isApplied(ids);
              return (
                <div key={`${suggestion.kind}:${ids.join(',')}`} data-testid="conformity-suggestion">
                  <SpaceBetween size="xxs">
                    <Box>
                      <Badge color={suggestion.exact ? 'green' : 'grey'}>
                        {differenceText(suggestion, data.currency)}
                      </Badge>{' '}
                      {text.documents(SHORT_NAME[suggestion.kind], ids.join(', '))}
                    </Box>
                    <Box variant="small" color="text-body-secondary">
                      {text.total(formatMoney(suggestion.total, data.currency))}
                    </Box>
                    <Button
                      disabled={applied}
                      ariaLabel={applied ? undefined : text.applyAria(ids.join(', '))}
                      onClick={() => onApply(suggestion.kind, ids)}
                    >
                      {applied ? text.applied : text.apply}
                    </Button>
                  </SpaceBetween>
                </div>
              );
            })}
            {!data.complete && (
              <Box variant="small" color="text-body-secondary">
                {text.incomplete}
              </Box>
            )}
          </SpaceBetween>
        )}
      </Container>
    </div>
  );
}

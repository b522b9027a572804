import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import ContentLayout from '@cloudscape-design/components/content-layout';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { routes, todayInLima } from '@portal/shared';
import { errorMessage } from '../../api/client';
import { useApi } from '../../api/use-api';
import { useClients } from '../../hooks/use-clients';
import { useQueryState } from '../../hooks/use-query-state';
import { resolveActiveCompany, useChosenCompany } from '../../session/active-company';
import { useCurrentUser } from '../../session/use-current-user';
import { dashboardPeriod, parsePeriod, withPeriod, yearsOffered, type DashboardPeriod } from './dashboard-period';
import { dashboardMessages as text } from './messages';
import { ConformityReport, PostingsReport, StatusReport, TypeReport } from './reports';

const ANY_MONTH: SelectProps.Option = { value: '', label: text.anyMonth };
const ANY_YEAR: SelectProps.Option = { value: '', label: text.anyYear };
const MONTH_OPTIONS: SelectProps.Option[] = [
  ANY_MONTH,
  ...text.months.map((label, index) => ({ value: String(index + 1), label })),
];

function yearOptions(thisYear: number, chosen: number | null): SelectProps.Option[] {
  return [ANY_YEAR, ...yearsOffered(thisYear, chosen).map((year) => ({ value: String(year), label: String(year) }))];
}

/**
 * The period in the URL's query (dashboard-period.ts): a reload or a shared link shows the same month. A
 * value that names no month or year of the portal is dropped from the address, and every month or year is
 * shown instead. Each choice replaces the history entry, as the invoices filters do.
 */
function usePeriodInUrl(thisYear: number) {
  const { key, latest, replace } = useQueryState();
  const period = useMemo(() => parsePeriod(new URLSearchParams(key), thisYear), [key, thisYear]);
  const cleaned = withPeriod(new URLSearchParams(key), period).toString();
  useEffect(() => {
    if (cleaned !== key) replace(new URLSearchParams(cleaned));
  }, [cleaned, key, replace]);
  // A month then a year chosen quickly: the year builds on the month (hooks/use-query-state.ts).
  const choose = (change: Partial<DashboardPeriod>) => {
    const current = latest();
    replace(withPeriod(current, { ...parsePeriod(current, thisYear), ...change }));
  };
  return [period, choose] as const;
}

/**
 * '/dashboard' (spec §2): the active company's invoices by status and by type, for a month of
 * issue or for all time. Managers with two companies switch company in the header.
 */
export default function DashboardPage() {
  const { taxIds } = useCurrentUser();
  const chosen = useChosenCompany();
  const client = resolveActiveCompany(taxIds, chosen);
  const { clients } = useClients();
  const navigate = useNavigate();
  const companyName = clients.find((candidate) => candidate.taxId === client)?.name ?? client ?? '';
  // The group's year: a browser elsewhere may already be in the next one.
  const [thisYear] = useState(() => Number(todayInLima().slice(0, 4)));
  const [{ month, year }, choosePeriod] = usePeriodInUrl(thisYear);
  const years = useMemo(() => yearOptions(thisYear, year), [thisYear, year]);

  const period = dashboardPeriod(month, year);
  const { data, error, isLoading, isValidating, mutate } = useApi(
    routes.getDashboard,
    client ? { query: { client, ...(period ? { period } : {}) } } : null,
  );
  const retry = () => void mutate();
  const state = { status: isLoading ? 'loading' : error ? 'error' : 'finished', onRetry: retry } as const;
  const periodLabel = period && month && year ? text.period(month, year) : text.allPeriod;

  return (
    <ContentLayout
      header={
        <Header
          variant="h1"
          description={client ? text.description(companyName) : undefined}
          actions={
            <Button
              iconName="refresh"
              ariaLabel={text.refresh}
              loading={isValidating && !isLoading}
              disabled={!client}
              onClick={retry}
            />
          }
        >
          {text.title}
        </Header>
      }
    >
      {!client ? (
        <Alert type="info">{text.noCompany}</Alert>
      ) : (
        <SpaceBetween size="l">
          <Container>
            <SpaceBetween size="s">
              <SpaceBetween direction="horizontal" size="m" alignItems="end">
                <div style={{ minWidth: 180 }}>
                  <FormField label={text.monthLabel}>
                    <Select
                      selectedOption={MONTH_OPTIONS.find((option) => option.value === String(month ?? '')) ?? ANY_MONTH}
                      options={MONTH_OPTIONS}
                      onChange={({ detail }) =>
                        choosePeriod({
                          month: detail.selectedOption.value ? Number(detail.selectedOption.value) : null,
                        })
                      }
                      data-testid="dashboard-month"
                    />
                  </FormField>
                </div>
                <div style={{ minWidth: 180 }}>
                  <FormField label={text.yearLabel}>
                    <Select
                      selectedOption={years.find((option) => option.value === String(year ?? '')) ?? ANY_YEAR}
                      options={years}
                      onChange={({ detail }) =>
                        choosePeriod({ year: detail.selectedOption.value ? Number(detail.selectedOption.value) : null })
                      }
                      data-testid="dashboard-year"
                    />
                  </FormField>
                </div>
                <Button
                  disabled={month === null && year === null}
                  onClick={() => choosePeriod({ month: null, year: null })}
                >
                  {text.clearPeriod}
                </Button>
              </SpaceBetween>
              <div role="status">
                <Box fontWeight="bold">
                  <span data-testid="dashboard-period">{text.periodShown(periodLabel)}</span>
                </Box>
                {!period && (month !== null || year !== null) ? (
                  <Box color="text-body-secondary">{text.periodHint}</Box>
                ) : null}
              </div>
            </SpaceBetween>
          </Container>
          {error ? (
            <Alert type="error" header={text.loadError} action={<Button onClick={retry}>{text.retry}</Button>}>
              <span data-testid="dashboard-error">{errorMessage(error)}</span>
            </Alert>
          ) : null}
          <PostingsReport counts={data} loading={isLoading} />
          <ConformityReport
            counts={data}
            loading={isLoading}
            listHref={(state) => `/invoices?acquirerConformity=${state}`}
            onFollow={(href) => navigate(href)}
          />
          <ColumnLayout columns={2}>
            <StatusReport counts={data} state={state} />
            <TypeReport counts={data} state={state} />
          </ColumnLayout>
        </SpaceBetween>
      )}
    </ContentLayout>
  );
}

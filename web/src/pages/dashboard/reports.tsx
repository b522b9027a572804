import type { ReactNode } from 'react';
import BarChart from '@cloudscape-design/components/bar-chart';
import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import PieChart from '@cloudscape-design/components/pie-chart';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { INVOICE_STATUS_LABELS, STATUS_COUNTER, type DashboardCounts, type InvoiceStatus } from '@portal/shared';
import { dashboardMessages as text } from './messages';
import { useNarrowScreen } from '../../hooks/use-narrow-screen';

type Counter = keyof DashboardCounts;

/** One line of a report: a counter of GET /dashboard with the label people read. */
export interface ReportRow {
  readonly counter: Counter;
  readonly label: string;
  readonly count: number;
}

const TYPE_COUNTERS = ['invService', 'invGoods', 'invWithoutPurchaseOrder', 'invUnassigned'] as const;

/** The report by status: the six statuses of spec §4 in their order. */
export function statusRows(counts: DashboardCounts | undefined): ReportRow[] {
  return (Object.entries(STATUS_COUNTER) as [InvoiceStatus, Counter][]).map(([status, counter]) => ({
    counter,
    label: INVOICE_STATUS_LABELS[status],
    count: counts?.[counter] ?? 0,
  }));
}

/** The report by type: the operation types the dashboard counts, and the invoices not yet typed. */
export function typeRows(counts: DashboardCounts | undefined): ReportRow[] {
  return TYPE_COUNTERS.map((counter) => ({ counter, label: text.typeLabels[counter], count: counts?.[counter] ?? 0 }));
}

const totalOf = (rows: readonly ReportRow[]) => rows.reduce((sum, row) => sum + row.count, 0);

const PERCENT = new Intl.NumberFormat('es-PE', { style: 'percent', maximumFractionDigits: 1 });
const percentOf = (count: number, total: number) => PERCENT.format(total === 0 ? 0 : count / total);

/** What the chart shows, in words: the chart's description for screen readers. */
function summaryOf(rows: readonly ReportRow[]): string {
  return text.chartSummary(rows.map((row) => `${row.label}: ${row.count}`).join('; '));
}

interface ChartState {
  readonly status: 'loading' | 'error' | 'finished';
  readonly onRetry: () => void;
}

const CHART_STATUS = (state: ChartState) => ({
  statusType: state.status,
  loadingText: text.chart.loadingText,
  errorText: text.chart.errorText,
  recoveryText: text.chart.recoveryText,
  onRecoveryClick: state.onRetry,
  empty: (
    <Box textAlign="center" color="inherit">
      {text.emptyChart}
    </Box>
  ),
});

/**
 * The counts of a report as a table: what the chart shows, readable without it (its text
 * alternative) and on any screen width.
 */
function CountsTable({
  id,
  rows,
  label,
  column,
  loading,
}: {
  id: string;
  rows: readonly ReportRow[];
  label: string;
  column: string;
  loading: boolean;
}) {
  const total = totalOf(rows);
  return (
    <Table
      variant="embedded"
      ariaLabels={{ tableLabel: label }}
      items={loading ? [] : [...rows]}
      loading={loading}
      loadingText={text.loading}
      trackBy="counter"
      columnDefinitions={[
        { id: 'label', header: column, cell: (row) => row.label, isRowHeader: true },
        {
          id: 'count',
          header: text.countColumn,
          cell: (row) => (
            <>
              <span data-testid={`${id}-count-${row.counter}`}>{row.count}</span>{' '}
              <Box variant="span" color="text-body-secondary">
                {text.share(percentOf(row.count, total))}
              </Box>
            </>
          ),
        },
      ]}
      footer={
        loading ? undefined : (
          <Box fontWeight="bold">
            {text.total}: <span data-testid={`${id}-total`}>{text.invoices(total)}</span>
          </Box>
        )
      }
    />
  );
}

/** The chart texts both reports share. */
const CHART_STRINGS = {
  filterLabel: text.chart.filterLabel,
  filterPlaceholder: text.chart.filterPlaceholder,
  filterSelectedAriaLabel: text.chart.filterSelectedAriaLabel,
  legendAriaLabel: text.chart.legendAriaLabel,
  detailPopoverDismissAriaLabel: text.chart.detailPopoverDismissAriaLabel,
  chartAriaRoleDescription: text.chart.chartAriaRoleDescription,
};

/** A report: its title and description, its chart, then the same counts as a table. */
function Report({
  id,
  texts,
  rows,
  state,
  children,
}: {
  id: string;
  texts: { title: string; description: string; tableLabel: string; column: string };
  rows: readonly ReportRow[];
  state: ChartState;
  children: ReactNode;
}) {
  return (
    <Container
      header={
        <Header variant="h2" description={texts.description}>
          {texts.title}
        </Header>
      }
    >
      <SpaceBetween size="l">
        {children}
        <CountsTable
          id={id}
          rows={rows}
          label={texts.tableLabel}
          column={texts.column}
          loading={state.status === 'loading'}
        />
      </SpaceBetween>
    </Container>
  );
}

/** Spec §2: the report of invoices by status, as a donut chart and as its counts. */
export function StatusReport({ counts, state }: { counts: DashboardCounts | undefined; state: ChartState }) {
  const rows = statusRows(counts);
  const total = totalOf(rows);
  const data = rows.filter((row) => row.count > 0).map((row) => ({ title: row.label, value: row.count }));
  // On a phone the callouts would be cut: the legend and the table below name every segment.
  const narrow = useNarrowScreen();
  return (
    <Report id="status" texts={text.byStatus} rows={rows} state={state}>
      <PieChart
        {...CHART_STATUS(state)}
        data={state.status === 'finished' ? data : []}
        variant="donut"
        size="medium"
        hideFilter
        hideTitles={narrow}
        hideDescriptions={narrow}
        innerMetricValue={String(total)}
        innerMetricDescription={text.innerMetric}
        segmentDescription={(segment, sum) => `${segment.value} (${percentOf(segment.value, sum)})`}
        detailPopoverContent={(segment, sum) => [
          { key: text.chart.detailsValue, value: segment.value },
          { key: text.chart.detailsPercentage, value: percentOf(segment.value, sum) },
        ]}
        ariaLabel={text.byStatus.chartLabel}
        ariaDescription={summaryOf(rows)}
        legendTitle={text.byStatus.column}
        i18nStrings={{
          detailsValue: text.chart.detailsValue,
          detailsPercentage: text.chart.detailsPercentage,
          ...CHART_STRINGS,
          segmentAriaRoleDescription: text.chart.segmentAriaRoleDescription,
        }}
      />
    </Report>
  );
}

const wholeNumbers = (value: number) => (Number.isInteger(value) ? String(value) : '');

/** Spec §2: the report of invoices by type, as a bar chart and as its counts. */
export function TypeReport({ counts, state }: { counts: DashboardCounts | undefined; state: ChartState }) {
  const rows = typeRows(counts);
  const total = totalOf(rows);
  const series =
    state.status === 'finished' && total > 0
      ? [
          {
            title: text.byType.seriesTitle,
            type: 'bar' as const,
            data: rows.map((row) => ({ x: row.label, y: row.count })),
          },
        ]
      : [];
  return (
    <Report id="type" texts={text.byType} rows={rows} state={state}>
      <BarChart
        {...CHART_STATUS(state)}
        series={series}
        xScaleType="categorical"
        xDomain={rows.map((row) => row.label)}
        horizontalBars
        hideFilter
        hideLegend
        height={220}
        xTitle={text.byType.column}
        yTitle={text.countColumn}
        yTickFormatter={wholeNumbers}
        ariaLabel={text.byType.chartLabel}
        ariaDescription={summaryOf(rows)}
        i18nStrings={{
          ...CHART_STRINGS,
          xAxisAriaRoleDescription: text.chart.xAxisAriaRoleDescription,
          yAxisAriaRoleDescription: text.chart.yAxisAriaRoleDescription,
          yTickFormatter: wholeNumbers,
        }}
      />
    </Report>
  );
}

/**
 * The company's Ley 29623 conformity clocks in the period: running (por vencer, an answer still due on SUNAT's
 * platform) and run out without an answer (vencidas: conformity presumed). Each links to the invoices list filtered
 * by that state.
 */
export function ConformityReport({
  counts,
  loading,
  listHref,
  onFollow,
}: {
  counts: DashboardCounts | undefined;
  loading: boolean;
  listHref: (state: 'OPEN' | 'PRESUMED_CONFORMITY') => string;
  /** Opens a link inside the app (without reloading it). */
  onFollow: (href: string) => void;
}) {
  const t = text.conformity;
  const open = counts?.acquirerConformityOpen ?? 0;
  const presumed = counts?.acquirerConformityPresumed ?? 0;
  const value = (count: number, testId: string, type: 'warning' | 'info', href: string) =>
    loading ? (
      <StatusIndicator type="loading">{text.loading}</StatusIndicator>
    ) : (
      <StatusIndicator type={count > 0 ? type : 'success'}>
        <Link
          href={href}
          ariaLabel={t.listLabel(count)}
          onFollow={(event) => {
            event.preventDefault();
            onFollow(href);
          }}
        >
          <span data-testid={testId}>{count}</span>
        </Link>
      </StatusIndicator>
    );
  return (
    <Container header={<Header description={t.description}>{t.title}</Header>}>
      <KeyValuePairs
        columns={2}
        items={[
          {
            label: t.open,
            info: <Box variant="small">{t.openHint}</Box>,
            value: value(open, 'dashboard-acquirer-conformity-open', 'warning', listHref('OPEN')),
          },
          {
            label: t.presumed,
            info: <Box variant="small">{t.presumedHint}</Box>,
            value: value(presumed, 'dashboard-acquirer-conformity-presumed', 'info', listHref('PRESUMED_CONFORMITY')),
          },
        ]}
      />
    </Container>
  );
}

/**
 * The company's SAP postings that need attention now (late and failed), whatever the period chosen:
 * a manager sees at once that approved invoices are not reaching SAP.
 */
export function PostingsReport({ counts, loading }: { counts: DashboardCounts | undefined; loading: boolean }) {
  const t = text.postings;
  const late = counts?.latePostings ?? 0;
  const failed = counts?.failedPostings ?? 0;
  return (
    <Container header={<Header description={t.description}>{t.title}</Header>}>
      <KeyValuePairs
        columns={2}
        items={[
          {
            label: t.late,
            info: <Box variant="small">{t.lateHint}</Box>,
            value: loading ? (
              <StatusIndicator type="loading">{text.loading}</StatusIndicator>
            ) : (
              <StatusIndicator type={late > 0 ? 'warning' : 'success'}>
                <span data-testid="dashboard-late-postings">{late}</span>
              </StatusIndicator>
            ),
          },
          {
            label: t.failed,
            info: <Box variant="small">{t.failedHint}</Box>,
            value: loading ? (
              <StatusIndicator type="loading">{text.loading}</StatusIndicator>
            ) : (
              <StatusIndicator type={failed > 0 ? 'error' : 'success'}>
                <span data-testid="dashboard-failed-postings">{failed}</span>
              </StatusIndicator>
            ),
          },
        ]}
      />
    </Container>
  );
}

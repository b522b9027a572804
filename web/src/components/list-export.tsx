import { useState, type ReactNode } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import ButtonDropdown from '@cloudscape-design/components/button-dropdown';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import {
  counted,
  formatCount,
  formatDateTime,
  routes,
  type ExportFormat,
  type ExportJob,
  type ExportList,
} from '@portal/shared';
import { apiCall } from '../api/client';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/use-api';

const ROWS = { one: 'fila', other: 'filas' } as const;

export const exportMessages = {
  button: 'Exportar',
  xlsx: 'Excel (XLSX)',
  csv: 'CSV',
  generating: 'Generando archivo…',
  queued: 'En cola: el archivo empezará a generarse en unos segundos.',
  rows: (rows: number, total: number | null) =>
    total === null ? counted(rows, ROWS) : `${formatCount(rows)} de ${counted(total, ROWS)}`,
  ready: 'Archivo listo',
  readyDetail: (job: ExportJob) =>
    `${job.fileName}: ${counted(job.rows, ROWS)}. El enlace vence en 5 minutos; si vence, vuelva a exportar.`,
  totalChanged: (job: ExportJob) =>
    `La lista cambió mientras se generaba el archivo: al pedirlo tenía ${counted(job.total ?? 0, ROWS)} y el archivo tiene ${formatCount(job.rows)}. Vuelva a exportar si necesita la lista de ahora.`,
  resumed: (at: string) =>
    `Reanudado el ${at} tras una interrupción: el archivo se genera de nuevo desde la primera fila.`,
  download: 'Descargar',
  failed: 'No se pudo generar el archivo. Inténtelo nuevamente.',
  refused: 'No se pudo pedir el archivo',
  dismiss: 'Cerrar aviso',
} as const;

const text = exportMessages;

/** The filters of a list's query as the export takes them: the query string's values (lists comma-separated). */
export function exportFilters(query: object | null): Record<string, string> {
  if (!query) return {};
  return Object.fromEntries(
    Object.entries(query)
      .filter(([name, value]) => value !== undefined && value !== null && value !== '' && name !== 'limit')
      .filter(([name]) => name !== 'cursor')
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : String(value)]),
  );
}

const POLL_MS = 1000;
const finished = (job: ExportJob | undefined) => job?.status === 'READY' || job?.status === 'FAILED';

/**
 * "Exportar" of a list: a menu of the two formats for the table's header, and the alert that follows
 * the export (its progress, polled every second, then the download link). `filters` is the list's current query:
 * the export is the whole filtered result, every page. Null while the list cannot be asked (no company yet).
 */
export function useListExport(list: ExportList, filters: object | null): { button: ReactNode; alert: ReactNode } {
  const [exportId, setExportId] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const job = useApi(routes.getExport, exportId ? { path: { exportId } } : null, {
    refreshInterval: (latest) => (finished(latest) ? 0 : POLL_MS),
    revalidateOnFocus: false,
  });

  const start = async (format: ExportFormat) => {
    setAsking(true);
    setRefused(null);
    try {
      const created = await apiCall(routes.createExport, { body: { list, format, filters: exportFilters(filters) } });
      setExportId(created.id);
    } catch (error) {
      setRefused(errorMessage(error));
    } finally {
      setAsking(false);
    }
  };

  const current = job.data;
  const running = asking || (exportId !== null && !finished(current));
  const button = (
    <ButtonDropdown
      items={[
        { id: 'xlsx', text: text.xlsx },
        { id: 'csv', text: text.csv },
      ]}
      loading={running}
      disabled={filters === null}
      onItemClick={({ detail }) => void start(detail.id as ExportFormat)}
    >
      {text.button}
    </ButtonDropdown>
  );

  const dismiss = () => {
    setExportId(null);
    setRefused(null);
  };
  let alert: ReactNode = null;
  if (refused) {
    alert = (
      <Alert
        type="error"
        header={text.refused}
        dismissible
        onDismiss={dismiss}
        i18nStrings={{ dismissAriaLabel: text.dismiss }}
      >
        {refused}
      </Alert>
    );
  } else if (exportId && current?.status === 'READY' && current.url) {
    alert = (
      <Alert
        type="success"
        header={text.ready}
        dismissible
        onDismiss={dismiss}
        i18nStrings={{ dismissAriaLabel: text.dismiss }}
        action={
          <Button href={current.url} iconName="download" target="_self">
            {text.download}
          </Button>
        }
      >
        {text.readyDetail(current)}
        {current.totalChanged && <div data-testid="export-total-changed">{text.totalChanged(current)}</div>}
      </Alert>
    );
  } else if (exportId && current?.status === 'FAILED') {
    alert = (
      <Alert type="error" dismissible onDismiss={dismiss} i18nStrings={{ dismissAriaLabel: text.dismiss }}>
        {text.failed}
      </Alert>
    );
  } else if (exportId) {
    const rows = current?.rows ?? 0;
    const total = current?.total ?? null;
    alert = (
      <Alert type="info">
        <ProgressBar
          label={text.generating}
          value={current?.progress === null || current?.progress === undefined ? undefined : current.progress * 100}
          description={
            current?.status === 'QUEUED' || !current
              ? text.queued
              : current.resumedAt
                ? text.resumed(formatDateTime(current.resumedAt))
                : undefined
          }
          additionalInfo={text.rows(rows, total)}
          ariaLabel={text.generating}
        />
      </Alert>
    );
  }
  return { button, alert };
}

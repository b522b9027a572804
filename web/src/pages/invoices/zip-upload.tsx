import { useEffect, useRef, useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FileInput from '@cloudscape-design/components/file-input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Modal from '@cloudscape-design/components/modal';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { useNavigate } from 'react-router-dom';
import {
  counted,
  formatCount,
  formatDateTime,
  plural,
  invoicePagePath,
  routes,
  type IntakeBatchStatus,
  type IntakeBatchSummary,
  type IntakeDocumentResult,
} from '@portal/shared';
import { apiCall } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { useApi } from '../../api/use-api';
import { FILE_RULES, isFileRejection, uploadFile } from './upload-file';
import { ActionLink } from '../../components/action-link';

export const zipMessages = {
  button: 'Cargar ZIP',
  buttonAria: 'Cargar un ZIP con los XML y PDF de varios comprobantes',
  history: 'Cargas de ZIP',
  title: 'Carga de ZIP',
  historyTitle: 'Cargas de ZIP recientes',
  close: 'Cerrar',
  back: 'Ver cargas recientes',
  hint: 'Hasta 500 comprobantes por ZIP: cada XML con su PDF del mismo nombre y, si lo tiene, su CDR (R-<nombre>.xml o R-<nombre>.zip), todos en la raíz del ZIP.',
  sending: (fileName: string) => `Enviando ${fileName}`,
  queued: 'En cola: el ZIP empezará a procesarse en unos segundos.',
  opening: 'Revisando el ZIP…',
  processing: 'Registrando los comprobantes…',
  resumed: (at: string) => `Reanudado el ${at} tras una interrupción: continúa donde quedó, sin repetir comprobantes.`,
  progress: (processed: number, total: number | null) =>
    total === null
      ? counted(processed, { one: 'procesado', other: 'procesados' })
      : `${formatCount(processed)} de ${counted(total, { one: 'comprobante', other: 'comprobantes' })}`,
  status: {
    QUEUED: 'En cola',
    PROCESSING: 'Procesando',
    DONE: 'Terminado',
    REFUSED: 'ZIP rechazado',
    FAILED: 'Interrumpido',
  } satisfies Record<IntakeBatchStatus, string>,
  refusedHeader: 'No se procesó el ZIP: no se registró ninguno de sus comprobantes.',
  stoppedHeader: (registered: number) =>
    `Se detuvo el ZIP: ${formatCount(registered)} de sus comprobantes ya se ${plural(registered, {
      one: 'había procesado y se queda',
      other: 'habían procesado y se quedan',
    })} como se indica; el resto no se registró.`,
  failedHeader: 'No se pudo terminar de procesar el ZIP.',
  accepted: 'Aceptados',
  alreadyExisting: 'Ya existían',
  refused: 'Rechazados',
  total: 'Comprobantes',
  columns: { document: 'Comprobante', outcome: 'Resultado', detail: 'Detalle' },
  outcome: { ACCEPTED: 'Aceptado', ALREADY_EXISTS: 'Ya existe', REFUSED: 'Rechazado' },
  seeInvoice: 'Ver comprobante',
  alreadyExists: (invoiceId: string) => `${invoiceId} ya existe`,
  noResults: 'Aún no hay resultados.',
  noBatches: 'No ha cargado ningún ZIP en los últimos 30 días.',
  batchColumns: { file: 'Archivo', date: 'Fecha', status: 'Estado', summary: 'Resultado' },
  summary: (batch: IntakeBatchSummary) =>
    batch.status === 'REFUSED' || batch.status === 'FAILED'
      ? (batch.error?.message ?? '')
      : [
          counted(batch.counts.accepted, { one: 'aceptado', other: 'aceptados' }),
          counted(batch.counts.alreadyExisting, { one: 'ya existía', other: 'ya existían' }),
          counted(batch.counts.refused, { one: 'rechazado', other: 'rechazados' }),
        ].join(', '),
  uploadFailed: 'No se pudo cargar el ZIP',
} as const;

const text = zipMessages;
const POLL_MS = 1500;
/** A zip's results fit one page (500 documents at most). */
const RESULTS_LIMIT = 500;

const ended = (status: IntakeBatchStatus | undefined) =>
  status === 'DONE' || status === 'REFUSED' || status === 'FAILED';

const STATUS_TYPES: Record<IntakeBatchStatus, StatusIndicatorProps.Type> = {
  QUEUED: 'pending',
  PROCESSING: 'in-progress',
  DONE: 'success',
  REFUSED: 'error',
  FAILED: 'error',
};
const OUTCOME_TYPES: Record<IntakeDocumentResult['outcome'], StatusIndicatorProps.Type> = {
  ACCEPTED: 'success',
  ALREADY_EXISTS: 'info',
  REFUSED: 'error',
};

/** The header button: a file input that accepts one zip. */
export function ZipUploadButton({ busy, onFile }: { busy: boolean; onFile: (file: File) => void }) {
  return (
    <FileInput
      value={[]}
      accept={[FILE_RULES.INVOICE_ZIP.extension, ...FILE_RULES.INVOICE_ZIP.contentTypes].join(',')}
      ariaLabel={text.buttonAria}
      onChange={({ detail }) => {
        const file = detail.value[0];
        if (file && !busy) onFile(file);
      }}
    >
      {text.button}
    </FileInput>
  );
}

type View = { kind: 'closed' } | { kind: 'sending'; fileName: string; percent: number } | { kind: 'batch'; id: string };

/**
 * 'Cargar ZIP': the zip goes to the bucket presigned (purpose INVOICE_ZIP), POST /intake-batches
 * registers it, and a modal follows the batch (polled until it ends): its progress, its counts and each document's
 * result — a link to the invoice, 'ya existe', or the reason in Spanish. 'Cargas de ZIP' lists the recent batches
 * (kept 30 days), each opened the same way; `initialBatch` opens one from a link (the e-mail's).
 */
/**
 * 'Cargar ZIP' and its modal. `onEnded` is called once a batch the modal follows ends, so that the screen refreshes
 * the list and its count without being asked.
 */
export function useZipUpload(initialBatch: string | null, onEnded?: () => void) {
  const [view, setView] = useState<View>(initialBatch ? { kind: 'batch', id: initialBatch } : { kind: 'closed' });
  const [history, setHistory] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const upload = async (file: File) => {
    setFailure(null);
    setHistory(false);
    setView({ kind: 'sending', fileName: file.name, percent: 0 });
    try {
      const key = await uploadFile(file, 'INVOICE_ZIP', (percent) =>
        setView({ kind: 'sending', fileName: file.name, percent }),
      );
      const batch = await apiCall(routes.createIntakeBatch, { body: { url: key } });
      setView({ kind: 'batch', id: batch.id });
    } catch (error) {
      setFailure(isFileRejection(error) ? error.message : errorMessage(error));
      setView({ kind: 'closed' });
    }
  };

  const close = () => {
    setView({ kind: 'closed' });
    setHistory(false);
  };
  const modal =
    view.kind === 'closed' && !history ? null : (
      <Modal
        visible
        size="large"
        onDismiss={close}
        header={history && view.kind === 'closed' ? text.historyTitle : text.title}
        closeAriaLabel={text.close}
        footer={
          <Box float="right">
            <SpaceBetween direction="horizontal" size="xs">
              {view.kind === 'batch' && (
                <Button
                  onClick={() => {
                    setView({ kind: 'closed' });
                    setHistory(true);
                  }}
                >
                  {text.back}
                </Button>
              )}
              <Button variant="primary" onClick={close}>
                {text.close}
              </Button>
            </SpaceBetween>
          </Box>
        }
      >
        {view.kind === 'sending' ? (
          <ProgressBar label={text.sending(view.fileName)} value={view.percent} status="in-progress" />
        ) : view.kind === 'batch' ? (
          <BatchView batchId={view.id} onLeave={close} onEnded={onEnded} />
        ) : (
          <RecentBatches onOpen={(id) => setView({ kind: 'batch', id })} />
        )}
      </Modal>
    );
  const alert = failure ? (
    <Alert
      type="error"
      header={text.uploadFailed}
      dismissible
      onDismiss={() => setFailure(null)}
      i18nStrings={{ dismissAriaLabel: text.close }}
    >
      {failure}
    </Alert>
  ) : null;
  return {
    busy: view.kind === 'sending',
    upload: (file: File) => void upload(file),
    openHistory: () => setHistory(true),
    modal,
    alert,
  };
}

function BatchView({ batchId, onLeave, onEnded }: { batchId: string; onLeave: () => void; onEnded?: () => void }) {
  const batch = useApi(
    routes.getIntakeBatch,
    { path: { batchId }, query: { limit: RESULTS_LIMIT } },
    { refreshInterval: (latest) => (ended(latest?.status) ? 0 : POLL_MS), revalidateOnFocus: false },
  );
  // Its documents are in the list once it ends: the list and its count are read again, once per batch.
  const isEnded = ended(batch.data?.status);
  const told = useRef<string | null>(null);
  useEffect(() => {
    if (!isEnded || told.current === batchId) return;
    told.current = batchId;
    onEnded?.();
  }, [isEnded, batchId, onEnded]);
  if (batch.error) return <Alert type="error">{errorMessage(batch.error)}</Alert>;
  const current = batch.data;
  if (!current) return <ProgressBar label={text.opening} status="in-progress" />;

  const counts = current.counts;
  const running = !ended(current.status);
  const stopped = current.status === 'REFUSED' && counts.processed > 0;
  return (
    <SpaceBetween size="m">
      <Box variant="p">
        <b>{current.fileName}</b> · {formatDateTime(current.createdAt)}
      </Box>
      {running && (
        <ProgressBar
          label={current.status === 'QUEUED' ? text.opening : text.processing}
          value={current.progress === null ? undefined : current.progress * 100}
          description={
            current.resumedAt
              ? text.resumed(formatDateTime(current.resumedAt))
              : current.status === 'QUEUED'
                ? text.queued
                : undefined
          }
          additionalInfo={text.progress(counts.processed, counts.total)}
          ariaLabel={text.processing}
        />
      )}
      {current.status === 'REFUSED' && (
        // A zip refused while its documents were read keeps what it had processed: the header says so.
        <Alert type="error" header={stopped ? text.stoppedHeader(counts.processed) : text.refusedHeader}>
          {current.error?.message}
        </Alert>
      )}
      {current.status === 'FAILED' && (
        <Alert type="error" header={text.failedHeader}>
          {current.error?.message}
        </Alert>
      )}
      {(current.status !== 'REFUSED' || stopped) && <BatchCounts counts={counts} />}
      {(current.status !== 'REFUSED' || stopped) && <BatchResults results={current.results.items} onLeave={onLeave} />}
    </SpaceBetween>
  );
}

/** How many documents the zip holds, and how many were accepted, already there or refused. */
function BatchCounts({ counts }: { counts: IntakeBatchSummary['counts'] }) {
  return (
    <KeyValuePairs
      columns={4}
      items={[
        { label: text.total, value: counts.total === null ? '—' : formatCount(counts.total) },
        {
          label: text.accepted,
          value: <StatusIndicator type="success">{formatCount(counts.accepted)}</StatusIndicator>,
        },
        {
          label: text.alreadyExisting,
          value: <StatusIndicator type="info">{formatCount(counts.alreadyExisting)}</StatusIndicator>,
        },
        {
          label: text.refused,
          value: <StatusIndicator type="error">{formatCount(counts.refused)}</StatusIndicator>,
        },
      ]}
    />
  );
}

/** Each document's outcome, with a link to its invoice (leaving the modal). */
function BatchResults({ results, onLeave }: { results: readonly IntakeDocumentResult[]; onLeave: () => void }) {
  const navigate = useNavigate();
  return (
    <Table
      variant="embedded"
      ariaLabels={{ tableLabel: text.title }}
      items={results}
      trackBy="base"
      wrapLines
      empty={<Box color="text-body-secondary">{text.noResults}</Box>}
      columnDefinitions={[
        { id: 'document', header: text.columns.document, cell: (result) => result.base },
        {
          id: 'outcome',
          header: text.columns.outcome,
          cell: (result) => (
            <StatusIndicator type={OUTCOME_TYPES[result.outcome]}>{text.outcome[result.outcome]}</StatusIndicator>
          ),
        },
        {
          id: 'detail',
          header: text.columns.detail,
          cell: (result) => {
            const invoice = result.invoice;
            const href = invoice ? invoicePagePath(invoice) : null;
            const link = href ? (
              <ActionLink
                href={href}
                onFollow={() => {
                  onLeave();
                  navigate(href);
                }}
              >
                {result.outcome === 'ALREADY_EXISTS' ? text.alreadyExists(invoice!.invoiceId) : text.seeInvoice}
              </ActionLink>
            ) : null;
            if (result.outcome === 'ACCEPTED') {
              return (
                <SpaceBetween size="xxs">
                  {link}
                  {result.cdrWarning && <Box color="text-status-warning">{result.cdrWarning}</Box>}
                </SpaceBetween>
              );
            }
            if (result.outcome === 'ALREADY_EXISTS') return link ?? result.reason?.message;
            return result.reason?.message;
          },
        },
      ]}
    />
  );
}

function RecentBatches({ onOpen }: { onOpen: (id: string) => void }) {
  const list = useApi(routes.listIntakeBatches, {}, { revalidateOnFocus: false });
  if (list.error) return <Alert type="error">{errorMessage(list.error)}</Alert>;
  return (
    <Table
      variant="embedded"
      ariaLabels={{ tableLabel: text.historyTitle }}
      loading={list.isLoading}
      items={list.data?.items ?? []}
      trackBy="id"
      wrapLines
      empty={<Box color="text-body-secondary">{text.noBatches}</Box>}
      columnDefinitions={[
        {
          id: 'file',
          header: text.batchColumns.file,
          cell: (batch) => <ActionLink onFollow={() => onOpen(batch.id)}>{batch.fileName}</ActionLink>,
        },
        { id: 'date', header: text.batchColumns.date, cell: (batch) => formatDateTime(batch.createdAt) },
        {
          id: 'status',
          header: text.batchColumns.status,
          cell: (batch) => (
            <StatusIndicator type={STATUS_TYPES[batch.status]}>{text.status[batch.status]}</StatusIndicator>
          ),
        },
        { id: 'summary', header: text.batchColumns.summary, cell: (batch) => text.summary(batch) },
      ]}
    />
  );
}

import { useState } from 'react';
import { useSWRConfig } from 'swr';
import Alert from '@cloudscape-design/components/alert';
import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FileUpload from '@cloudscape-design/components/file-upload';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Textarea from '@cloudscape-design/components/textarea';
import {
  COUNT_LIMITS,
  LEVEL_LABELS,
  TEXT_LIMITS,
  cleanMessageText,
  formatDateTime,
  routes,
  type InvoiceDetail,
  type InvoiceMessage,
  type Level,
  type InvoiceRefParams,
} from '@portal/shared';
import { apiCall, errorMessage } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { useFeedback } from '../../../feedback/feedback';
import { conversationMessages as text } from './conversation-messages';
import { ATTACHMENT_ACCEPT, uploadAttachment } from './upload-attachment';
import { ActionLink } from '../../../components/action-link';

type InvoicePath = InvoiceRefParams;

/**
 * The "Mensajes" section of the invoice detail: the conversation between the supplier and the group's
 * staff, oldest first (newest last), and a form to write. Every text is shown as the plain text it is (React escapes
 * it; nothing is ever set as HTML); attachments are downloads. Staff mark the invoice "Observada" with the message
 * they write, and take the mark off.
 */
export function MessagesSection(props: {
  readonly invoice: InvoiceDetail;
  readonly path: InvoicePath;
  readonly level: Level | undefined;
  /** After a message or a mark: the detail and the list refresh (the badge, the filter). */
  readonly onChanged: () => void;
}) {
  const { invoice, path, level } = props;
  const staff = level === 'MANAGER' || level === 'ADMIN';
  const feedback = useFeedback();
  const { mutate: mutateAny } = useSWRConfig();
  const conversation = useApi(routes.listInvoiceMessages, { path });
  const [draft, setDraft] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState<'send' | 'observe' | 'clear' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const observation = conversation.data?.observation ?? invoice.observation ?? null;

  const refreshAll = () => {
    void conversation.mutate();
    // The header's count of conversations waiting on the user.
    void mutateAny((key) => Array.isArray(key) && key[0] === routes.countWaitingConversations.id);
    props.onChanged();
  };

  const write = async (kind: 'send' | 'observe') => {
    const cleaned = cleanMessageText(draft);
    if (!cleaned.ok) {
      setProblem(
        cleaned.problem === 'EMPTY' ? (kind === 'observe' ? text.observeHint : text.empty_text) : text.tooLong,
      );
      return;
    }
    if (files.length > COUNT_LIMITS.messageAttachments) {
      setProblem(text.tooManyFiles);
      return;
    }
    setProblem(null);
    setBusy(kind);
    try {
      // The upload is made for the writer's side of the invoice: the supplier's RUC, or the company.
      const company = staff ? invoice.client : invoice.supplierId;
      const attachments: string[] = [];
      for (const file of files) attachments.push(await uploadAttachment(file, company, 'MESSAGE_ATTACHMENT'));
      const route = kind === 'observe' ? routes.observeInvoice : routes.postInvoiceMessage;
      await apiCall(route, { path, body: { text: draft, attachments } });
      setDraft('');
      setFiles([]);
      feedback.success(kind === 'observe' ? text.observed : text.sent);
      refreshAll();
    } catch (cause) {
      feedback.error(cause);
    } finally {
      setBusy(null);
    }
  };

  const clear = async () => {
    setBusy('clear');
    try {
      await apiCall(routes.clearInvoiceObservation, { path });
      feedback.success(text.cleared);
      refreshAll();
    } catch (cause) {
      feedback.error(cause);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div data-testid="invoice-messages">
      <Container
        header={
          <Header
            variant="h3"
            counter={conversation.data ? `(${conversation.data.items.length})` : undefined}
            description={text.description}
          >
            {text.title}
          </Header>
        }
      >
        <SpaceBetween size="m">
          {observation && (
            <ObservationAlert
              observation={observation}
              staff={staff}
              clearing={busy === 'clear'}
              disabled={busy !== null}
              onClear={() => void clear()}
            />
          )}

          <ConversationList
            items={conversation.data?.items}
            error={conversation.error}
            onRetry={() => void conversation.mutate()}
            path={path}
          />

          <MessageComposer
            draft={draft}
            onDraft={(value) => {
              setDraft(value);
              setProblem(null);
            }}
            problem={problem}
            files={files}
            onFiles={setFiles}
            staff={staff}
            busy={busy}
            onWrite={(kind) => void write(kind)}
          />
        </SpaceBetween>
      </Container>
    </div>
  );
}

/** Staff marked the invoice "Observada": who and when, and for staff the button that takes the mark off. */
function ObservationAlert({
  observation,
  staff,
  clearing,
  disabled,
  onClear,
}: {
  observation: NonNullable<InvoiceDetail['observation']>;
  staff: boolean;
  clearing: boolean;
  disabled: boolean;
  onClear: () => void;
}) {
  return (
    <div data-testid="invoice-observation">
      <Alert
        type="warning"
        header={text.observedHeader}
        action={
          staff ? (
            <Button loading={clearing} disabled={disabled} onClick={onClear}>
              {text.clear}
            </Button>
          ) : undefined
        }
      >
        {staff
          ? text.observedBody(observation.by ?? '', formatDateTime(observation.since, { zone: true }))
          : text.observedBodySupplier(formatDateTime(observation.since, { zone: true }))}
      </Alert>
    </div>
  );
}

/** The conversation, oldest first, as it loads; an attachment's link downloads it. */
function ConversationList({
  items,
  error,
  onRetry,
  path,
}: {
  items: readonly InvoiceMessage[] | undefined;
  error: unknown;
  onRetry: () => void;
  path: InvoicePath;
}) {
  const feedback = useFeedback();
  const download = async (message: InvoiceMessage, index: number) => {
    try {
      const link = await apiCall(routes.getInvoiceMessageFile, {
        path: { ...path, messageId: message.id },
        query: { index },
      });
      // The link answers as a download (Content-Disposition: attachment): the page stays where it is.
      window.location.assign(link.url);
    } catch (cause) {
      feedback.error(cause);
    }
  };
  return error && !items ? (
    <Alert type="error" header={text.loadFailed} action={<Button onClick={onRetry}>{text.retry}</Button>}>
      {errorMessage(error)}
    </Alert>
  ) : !items ? (
    <StatusIndicator type="loading">{text.loading}</StatusIndicator>
  ) : items.length === 0 ? (
    <Box color="text-body-secondary">{text.empty}</Box>
  ) : (
    <ol aria-label={text.listLabel} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {items.map((message) => (
        <MessageItem key={message.id} message={message} onDownload={(index) => void download(message, index)} />
      ))}
    </ol>
  );
}

/** One message: who wrote it and when, its plain text and its attachments. */
function MessageItem({ message, onDownload }: { message: InvoiceMessage; onDownload: (index: number) => void }) {
  return (
    <li data-testid="invoice-message" data-side={message.side} style={{ marginBottom: 12 }}>
      <SpaceBetween size="xxs">
        <Box fontSize="body-s" color="text-body-secondary">
          <Box variant="strong" fontSize="body-s">
            {text.author(message.authorName, LEVEL_LABELS[message.authorRole])}
          </Box>{' '}
          · <time dateTime={message.at}>{formatDateTime(message.at, { zone: true })}</time>
          {message.observation && (
            <>
              {' '}
              <Badge color="severity-medium">{text.observationTag}</Badge>
            </>
          )}
        </Box>
        {/* Plain text: React escapes it; line breaks kept as written. */}
        <div data-testid="invoice-message-text" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {message.text}
        </div>
        {message.attachments.length > 0 && (
          <SpaceBetween direction="horizontal" size="s">
            {message.attachments.map((file, index) => (
              <ActionLink key={file.key} ariaLabel={text.download(file.fileName)} onFollow={() => onDownload(index)}>
                {file.fileName}
              </ActionLink>
            ))}
          </SpaceBetween>
        )}
      </SpaceBetween>
    </li>
  );
}

/** The text and files being written, and 'Enviar' (staff also 'Observar'). */
function MessageComposer({
  draft,
  onDraft,
  problem,
  files,
  onFiles,
  staff,
  busy,
  onWrite,
}: {
  draft: string;
  onDraft: (value: string) => void;
  problem: string | null;
  files: File[];
  onFiles: (files: File[]) => void;
  staff: boolean;
  busy: 'send' | 'observe' | 'clear' | null;
  onWrite: (kind: 'send' | 'observe') => void;
}) {
  const length = Array.from(draft.trim()).length;
  return (
    <>
      <FormField
        label={text.textLabel}
        constraintText={text.textConstraint(length)}
        errorText={problem ?? (length > TEXT_LIMITS.message ? text.tooLong : undefined)}
        stretch
      >
        <Textarea
          value={draft}
          onChange={({ detail }) => onDraft(detail.value)}
          placeholder={text.textPlaceholder}
          rows={3}
          ariaLabel={text.textLabel}
        />
      </FormField>
      <FormField label={text.attach} constraintText={text.attachConstraint} stretch>
        <FileUpload
          multiple
          accept={ATTACHMENT_ACCEPT}
          value={files}
          onChange={({ detail }) => onFiles(detail.value)}
          showFileSize
          i18nStrings={{
            uploadButtonText: () => text.attach,
            dropzoneText: () => text.dropzone,
            removeFileAriaLabel: (index) => text.removeFile(index),
            limitShowFewer: text.showFewer,
            limitShowMore: text.showMore,
            errorIconAriaLabel: text.errorIcon,
            warningIconAriaLabel: text.warningIcon,
          }}
        />
      </FormField>
      <SpaceBetween direction="horizontal" size="xs">
        <Button variant="primary" loading={busy === 'send'} disabled={busy !== null} onClick={() => onWrite('send')}>
          {text.send}
        </Button>
        {staff && (
          <Button loading={busy === 'observe'} disabled={busy !== null} onClick={() => onWrite('observe')}>
            {text.observe}
          </Button>
        )}
      </SpaceBetween>
    </>
  );
}

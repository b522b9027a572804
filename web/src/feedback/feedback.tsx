import {
  Suspense,
  createContext,
  lazy,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import type { FlashbarProps } from '@cloudscape-design/components/flashbar';
import { errorMessage } from '../api/client';
import { messages } from '../messages';
import './alert-dialog.css';

// The flash bar loads with the first message: most screens show none when they open.
const Flashbar = lazy(() => import('@cloudscape-design/components/flashbar'));

/** The global alert dialog of spec §2: a header, a message and optional details. */
export interface AlertContent {
  readonly header: string;
  readonly message: string;
  readonly details?: string;
}

export interface Feedback {
  /** A success message of spec §9 ('El comprobante ha sido aprobado. …'), dismissible, above the screen. */
  success(text: string, header?: string): void;
  /** An error shown by spec §8's display rule (catalogue code, fill-all-fields, unexpected; txId appended). */
  error(error: unknown, header?: string): void;
  /** Opens the global alert dialog. */
  alert(content: AlertContent): void;
}

const FeedbackContext = createContext<Feedback | null>(null);
const FlashContext = createContext<FlashbarProps.MessageDefinition[]>([]);

/** Provides `useFeedback()` to every screen; the shell renders the messages, the provider the dialog. */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<FlashbarProps.MessageDefinition[]>([]);
  const [dialog, setDialog] = useState<AlertContent | null>(null);
  const counter = useRef(0);

  const push = useCallback((type: FlashbarProps.Type, content: string, header?: string) => {
    counter.current += 1;
    const id = `feedback-${counter.current}`;
    const dismiss = () => setItems((current) => current.filter((item) => item.id !== id));
    setItems((current) => [
      ...current.slice(-2),
      {
        id,
        type,
        header,
        content,
        dismissible: true,
        dismissLabel: messages.feedback.dismiss,
        onDismiss: dismiss,
      },
    ]);
    if (type === 'success') setTimeout(dismiss, 8000);
  }, []);

  const feedback = useMemo<Feedback>(
    () => ({
      success: (text, header) => push('success', text, header),
      error: (error, header) => push('error', typeof error === 'string' ? error : errorMessage(error), header),
      alert: (content) => setDialog(content),
    }),
    [push],
  );

  return (
    <FeedbackContext.Provider value={feedback}>
      <FlashContext.Provider value={items}>
        {children}
        {dialog && <AlertDialog content={dialog} onClose={() => setDialog(null)} />}
      </FlashContext.Provider>
    </FeedbackContext.Provider>
  );
}

export function useFeedback(): Feedback {
  const feedback = useContext(FeedbackContext);
  if (!feedback) throw new Error('useFeedback outside FeedbackProvider');
  return feedback;
}

/** The flash messages, for the shell's notifications slot. */
export function FeedbackMessages() {
  const items = useContext(FlashContext);
  return items.length > 0 ? (
    <Suspense fallback={null}>
      <Flashbar items={items} stackItems={items.length > 2} />
    </Suspense>
  ) : null;
}

/**
 * Spec §2 and §9: 34rem wide (90% below 575px), stacking level 10000, one full-width 'Entendido'
 * button, closes on Escape, not draggable. A native <dialog> opened modally keeps focus inside it.
 */
function AlertDialog({ content, onClose }: { content: AlertContent; onClose: () => void }) {
  // Focus goes back where it was when the dialog leaves (it is unmounted, not closed).
  const opener = useRef<HTMLElement | null>(null);
  const ref = useCallback((node: HTMLDialogElement | null) => {
    if (!node || node.open) return;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    node.showModal();
  }, []);
  useEffect(
    () => () => {
      if (opener.current?.isConnected) opener.current.focus();
    },
    [],
  );
  return (
    <dialog
      ref={ref}
      draggable={false}
      className="portal-alert-dialog"
      aria-labelledby="portal-alert-dialog-header"
      aria-describedby="portal-alert-dialog-message"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      data-testid="alert-dialog"
    >
      <Box variant="h2" id="portal-alert-dialog-header" margin={{ bottom: 's' }}>
        {content.header}
      </Box>
      <Box id="portal-alert-dialog-message">{content.message}</Box>
      {content.details && (
        <Box variant="small" color="text-body-secondary" margin={{ top: 's' }}>
          {content.details}
        </Box>
      )}
      <div className="portal-alert-dialog__actions">
        <Button variant="primary" fullWidth onClick={onClose}>
          {messages.feedback.understood}
        </Button>
      </div>
    </dialog>
  );
}

import { useEffect, useMemo, useRef, type Dispatch, type KeyboardEvent, type SetStateAction } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import PromptInput, { type PromptInputProps } from '@cloudscape-design/components/prompt-input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { parseTaxIds, routes, type SessionUser } from '@portal/shared';
import { apiCall } from '../api/client';
import { useClients } from '../hooks/use-clients';
import { answer, type Answer, type InvoiceCounter, type InvoiceLookup } from './answers';
import { understand } from './intents';
import { chatMessages } from './messages';
import { ActionLink } from '../components/action-link';

const text = chatMessages;

/** One message of the conversation. */
export interface Turn {
  readonly id: number;
  readonly from: 'user' | 'assistant';
  readonly answer: Answer;
}

const lookup: InvoiceLookup = (query) => apiCall(routes.listInvoices, { query });
const count: InvoiceCounter = (query) => apiCall(routes.countInvoices, { query });

/** The companies whose invoices the assistant may read for the user (see AnswerContext.scopes). */
function useScopes(user: SessionUser): (string | undefined)[] {
  const { clients } = useClients();
  return useMemo(() => {
    if (user.level === 'SUPPLIER') return [undefined];
    if (user.level === 'ADMIN') return clients.map((client) => client.taxId);
    return parseTaxIds(user.taxId);
  }, [user.level, user.taxId, clients]);
}

function AnswerView({ answer: content, onFollow }: { answer: Answer; onFollow: (href: string) => void }) {
  return (
    <SpaceBetween size="xs">
      <span>{content.text}</span>
      {content.lists?.map((list, index) => (
        <div key={index}>
          {list.title && <span>{list.title}</span>}
          {list.items.length > 0 && (
            <ul className="portal-chat__list">
              {list.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
        </div>
      ))}
      {content.note && <span>{content.note}</span>}
      {content.link && (
        <ActionLink href={content.link.href} onFollow={() => onFollow(content.link!.href)}>
          {content.link.text}
        </ActionLink>
      )}
    </SpaceBetween>
  );
}

/**
 * The conversation the launcher keeps while the panel is closed (web/src/chat/built-in-assistant.tsx), so that
 * closing and opening the panel loses nothing.
 */
export interface Conversation {
  readonly turns: readonly Turn[];
  readonly setTurns: Dispatch<SetStateAction<Turn[]>>;
  readonly question: string;
  readonly setQuestion: (question: string) => void;
  readonly busy: boolean;
  readonly setBusy: (busy: boolean) => void;
  /** The id of the next turn. */
  readonly nextId: { current: number };
}

export interface AssistantPanelProps {
  readonly user: SessionUser;
  readonly conversation: Conversation;
  readonly panelId: string;
  readonly titleId: string;
  onClose(): void;
}

/**
 * The open panel of the built-in assistant, loaded the first time the launcher is used: answers how-to
 * questions from a small intent table and the user's invoice questions through the API. Answers are
 * announced (role="log"); Escape closes the panel.
 */
export default function AssistantPanel({ user, conversation, panelId, titleId, onClose }: AssistantPanelProps) {
  const navigate = useNavigate();
  const scopes = useScopes(user);
  const { turns, setTurns, question, setQuestion, busy, setBusy, nextId } = conversation;
  const input = useRef<PromptInputProps.Ref>(null);
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    input.current?.focus();
  }, []);

  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [turns, busy]);

  const ask = async (raw: string) => {
    const asked = raw.trim();
    if (!asked || busy) return;
    setQuestion('');
    setTurns((current) => [...current, { id: nextId.current++, from: 'user', answer: { text: asked } }]);
    setBusy(true);
    const reply = await answer(understand(asked), { level: user.level, scopes, lookup, count });
    setBusy(false);
    setTurns((current) => [...current, { id: nextId.current++, from: 'assistant', answer: reply }]);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <div
      id={panelId}
      className="portal-chat__panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      data-testid="chat-panel"
    >
      <div className="portal-chat__header">
        <div>
          <Box variant="h2" fontSize="heading-s" id={titleId} margin="n">
            {text.title}
          </Box>
          <Box variant="small" color="text-body-secondary">
            {text.subtitle}
          </Box>
        </div>
        <Button variant="icon" iconName="close" ariaLabel={text.close} onClick={onClose} />
      </div>
      <div ref={log} className="portal-chat__log" role="log" aria-live="polite" aria-label={text.conversationLabel}>
        {turns.map((turn) => (
          <div
            key={turn.id}
            className={`portal-chat__turn portal-chat__turn--${turn.from}`}
            data-testid={turn.from === 'assistant' ? 'chat-answer' : 'chat-question'}
          >
            <Box>
              <span className="portal-chat__speaker">{turn.from === 'user' ? text.you : text.assistant}: </span>
              {turn.from === 'user' ? (
                turn.answer.text
              ) : (
                <AnswerView answer={turn.answer} onFollow={(href) => navigate(href)} />
              )}
            </Box>
          </div>
        ))}
        {busy && (
          <div className="portal-chat__turn portal-chat__turn--assistant">
            <Box>
              <Spinner /> {text.thinking}
            </Box>
          </div>
        )}
      </div>
      {turns.length === 1 && (
        <div className="portal-chat__suggestions" role="group" aria-label={text.suggestionsLabel}>
          {text.suggestions.map((suggestion) => (
            <Button key={suggestion} onClick={() => void ask(suggestion)} disabled={busy}>
              {suggestion}
            </Button>
          ))}
        </div>
      )}
      <div className="portal-chat__input">
        <PromptInput
          ref={input}
          value={question}
          onChange={({ detail }) => setQuestion(detail.value)}
          onAction={({ detail }) => void ask(detail.value)}
          ariaLabel={text.inputLabel}
          placeholder={text.placeholder}
          actionButtonIconName="send"
          i18nStrings={{ actionButtonAriaLabel: text.send }}
          disableActionButton={busy || question.trim() === ''}
          minRows={1}
          maxRows={4}
        />
      </div>
    </div>
  );
}

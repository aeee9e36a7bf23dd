import { ActionIcon, Avatar, CopyButton } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { IconCopy } from '@tabler/icons-react';
import { IconPlayerStopFilled } from '@tabler/icons-react';
import { IconSparkles } from '@tabler/icons-react';
import { IconAlertTriangle } from '@tabler/icons-react';
import { memo, type ReactNode } from 'react';
import { chatTexts } from '../../../shared/texts';
import { LazyTooltip } from '../../components/LazyFloating';
import { SaveAsGoal } from '../goals/SaveAsGoal';
import { AgendaActions } from './AgendaActions';
import { mentionsAgenda } from './agenda';
import classes from './chat.module.css';
import type { MessageDto } from './chatCache';
import { CoachText, PlainText } from './CoachText';
import { useStreamingText } from './streamingReplies';
import { TypingIndicator } from './TypingIndicator';

// One message of the conversation. Memoised: a bubble re-renders only when its own message
// object changes; a streaming reply re-renders only its body, from the streaming store.

const copyConfirmMs = 2000; // SPEC section 9: copy confirmation 2 s

// Formatters made once, when the first bubble is drawn: a formatter is costly to make, and every
// bubble drawn (a row scrolled into view) formats its time twice. Not when this module loads: a
// page's first Intl object loads the browser's locale data (12 ms on this machine, 50 ms at a
// phone's 4x), and /app's first view, a new conversation, draws no bubble (issue 10: TBT).
let formats: { full: Intl.DateTimeFormat; time: Intl.DateTimeFormat; dayTime: Intl.DateTimeFormat } | undefined;
function stampFormats() {
  formats ??= {
    full: new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' }),
    time: new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }),
    dayTime: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
  };
  return formats;
}

function fullStamp(iso: string) {
  return stampFormats().full.format(new Date(iso));
}

function shortStamp(iso: string) {
  const date = new Date(iso);
  const today = new Date();
  const sameDay = date.toDateString() === today.toDateString();
  return sameDay ? stampFormats().time.format(date) : stampFormats().dayTime.format(date);
}

function Stamp(props: { iso: string }) {
  return (
    <time dateTime={props.iso} title={fullStamp(props.iso)} className={classes.hoverReveal}>
      {shortStamp(props.iso)}
    </time>
  );
}

export function CoachAvatar() {
  return (
    <Avatar color="indigo" radius="xl" size={32} aria-hidden>
      <IconSparkles size={18} />
    </Avatar>
  );
}

function AssistantRow(props: { label: string; busy?: boolean; body: ReactNode; meta?: ReactNode; after?: ReactNode }) {
  return (
    <article className={classes.row} aria-label={props.label} aria-busy={props.busy || undefined}>
      <CoachAvatar />
      <div className={classes.column}>
        <div className={`${classes.bubble} ${classes.bubbleAssistant}`}>{props.body}</div>
        {props.after}
        {props.meta && <div className={classes.meta}>{props.meta}</div>}
      </div>
    </article>
  );
}

export function GreetingBubble() {
  return <AssistantRow label={chatTexts.speakerCoach} body={<PlainText text={chatTexts.greeting} />} />;
}

export function UserBubble(props: { content: string; createdAt?: string; pending?: boolean }) {
  return (
    <article className={`${classes.row} ${classes.rowUser}`} aria-label={chatTexts.speakerUser}>
      <div className={classes.column}>
        <div className={`${classes.bubble} ${classes.bubbleUser} ${props.pending ? classes.bubblePending : ''}`}>{props.content}</div>
        {props.createdAt && (
          <div className={classes.meta}>
            <Stamp iso={props.createdAt} />
          </div>
        )}
      </div>
    </article>
  );
}

/** The coach is about to answer (the send is on its way): the typing dots alone. */
export function TypingBubble() {
  return <AssistantRow label={chatTexts.speakerCoach} busy body={<TypingIndicator />} />;
}

function StreamingBody(props: { messageId: number; initial: string }) {
  const entry = useStreamingText(props.messageId);
  const text = entry?.text ?? props.initial;
  return text ? <CoachText text={text} streaming /> : <TypingIndicator />;
}

function CopyMessageButton(props: { text: string }) {
  return (
    <CopyButton value={props.text} timeout={copyConfirmMs}>
      {({ copied, copy }) => (
        <LazyTooltip label={copied ? chatTexts.copiedMessage : chatTexts.copyMessage} openDelay={copied ? 0 : 700} withArrow>
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            size="sm"
            aria-label={copied ? chatTexts.copiedMessage : chatTexts.copyMessage}
            onClick={copy}
            className={copied ? undefined : classes.hoverReveal}
          >
            {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          </ActionIcon>
        </LazyTooltip>
      )}
    </CopyButton>
  );
}

export const MessageBubble = memo(function MessageBubble(props: {
  message: MessageDto;
  onModifyAgenda: () => void;
}) {
  const { message } = props;
  if (message.role === 'system') return null;
  if (message.role === 'user') return <UserBubble content={message.content} createdAt={message.createdAt} />;

  if (message.status === 'streaming') {
    return (
      <AssistantRow label={chatTexts.speakerCoach} busy body={<StreamingBody messageId={message.id} initial={message.content} />} />
    );
  }

  const text = message.content;
  const showAgenda = message.status === 'complete' && mentionsAgenda(text);
  return (
    <AssistantRow
      label={chatTexts.speakerCoach}
      body={<CoachText text={text} />}
      meta={
        <>
          {message.status === 'stopped' && (
            <span className={classes.mark}>
              <IconPlayerStopFilled size={11} aria-hidden />
              {chatTexts.stoppedMark}
            </span>
          )}
          {message.status === 'failed' && (
            <span className={classes.mark}>
              <IconAlertTriangle size={12} aria-hidden />
              {chatTexts.failedMark}
            </span>
          )}
          <Stamp iso={message.createdAt} />
          {text && <CopyMessageButton text={text} />}
        </>
      }
      after={
        <>
          {showAgenda && <AgendaActions text={text} chatId={message.chatId} onModify={props.onModifyAgenda} />}
          {message.status === 'complete' && <SaveAsGoal text={text} chatId={message.chatId} />}
        </>
      }
    />
  );
});

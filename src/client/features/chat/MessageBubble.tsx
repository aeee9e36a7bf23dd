import { ActionIcon, CopyButton } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { IconCopy } from '@tabler/icons-react';
import { IconPlayerStopFilled } from '@tabler/icons-react';
import { IconAlertTriangle } from '@tabler/icons-react';
import { memo } from 'react';
import { chatTexts } from '../../../shared/texts';
import { LazyTooltip } from '../../components/LazyFloating';
import { SaveAsGoal } from '../goals/SaveAsGoal';
import { AgendaActions } from './AgendaActions';
import { mentionsAgenda } from './agenda';
import { AssistantRow, Stamp, UserBubble, type Speaker } from './Bubbles';
import classes from './chat.module.css';
import type { MessageDto } from './chatCache';
import { CoachText } from './CoachText';
import { useStreamingText } from './streamingReplies';
import { TypingIndicator } from './TypingIndicator';

// One message of the conversation. Memoised: a bubble re-renders only when its own message
// object changes; a streaming reply re-renders only its body, from the streaming store.

const copyConfirmMs = 2000; // The product spec's constants and limits: copy confirmation 2 s

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
  /** Who speaks this reply when it is not the coach (the other person of a rehearsal). */
  speaker?: Speaker | null;
}) {
  const { message } = props;
  if (message.role === 'system') return null;
  if (message.role === 'user') return <UserBubble content={message.content} createdAt={message.createdAt} />;

  if (message.status === 'streaming') {
    return (
      <AssistantRow label={chatTexts.speakerCoach} busy speaker={props.speaker} body={<StreamingBody messageId={message.id} initial={message.content} />} />
    );
  }

  const text = message.content;
  const showAgenda = !props.speaker && message.status === 'complete' && mentionsAgenda(text);
  return (
    <AssistantRow
      label={chatTexts.speakerCoach}
      speaker={props.speaker}
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
          {!props.speaker && message.status === 'complete' && <SaveAsGoal text={text} chatId={message.chatId} />}
        </>
      }
    />
  );
});

import { IconSparkles } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { chatViewTexts } from '../../../shared/texts';
import { AvatarCircle } from '../../components/AvatarCircle';
import { initialsOf } from '../../lib/initials';
import classes from './chat.module.css';
import { PlainText } from './CoachText';
import { TypingIndicator } from './TypingIndicator';

// The rows every thread draws: the coach's greeting, the user's message, the typing dots, and the
// frame of a coach reply. Apart from MessageBubble (a stored or streamed reply, with its copy,
// agenda and goal actions), so that a new conversation's first view (DraftThread) loads none of
// those (the first visit's JavaScript).

// Formatters made once, when the first bubble is drawn: a formatter is costly to make, and every
// bubble drawn (a row scrolled into view) formats its time twice. Not when this module loads: a
// page's first Intl object loads the browser's locale data (12 ms on this machine, 50 ms at a
// phone's 4x), and /app's first view, a new conversation, draws no bubble (Total Blocking Time).
let formats: { full: Intl.DateTimeFormat; time: Intl.DateTimeFormat; dayTime: Intl.DateTimeFormat } | undefined;
/**
 * Makes the formatters now, ahead of the first bubble: called when a stored conversation's thread
 * is loaded, so that the locale data is read in a task of its own while the messages are on their
 * way rather than inside the render that draws them (a cold page load of a chat: 13 ms of its
 * longest task).
 */
export function prepareStamps(): void {
  stampFormats();
}
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

export function Stamp(props: { iso: string }) {
  return (
    <time dateTime={props.iso} title={fullStamp(props.iso)} className={classes.hoverReveal}>
      {shortStamp(props.iso)}
    </time>
  );
}

function CoachAvatar() {
  return (
    <AvatarCircle size={32}>
      <IconSparkles size={18} />
    </AvatarCircle>
  );
}

/** Who speaks in an assistant row other than the coach: the other person of a rehearsal. */
export type Speaker = { name: string };

function SpeakerAvatar(props: { speaker: Speaker }) {
  return (
    <AvatarCircle size={32} tone="person">
      {initialsOf(props.speaker.name)}
    </AvatarCircle>
  );
}

export function AssistantRow(props: { label: string; busy?: boolean; body: ReactNode; meta?: ReactNode; after?: ReactNode; speaker?: Speaker | null }) {
  const speaker = props.speaker ?? null;
  return (
    <article className={classes.row} aria-label={speaker ? speaker.name : props.label} aria-busy={props.busy || undefined}>
      {speaker ? <SpeakerAvatar speaker={speaker} /> : <CoachAvatar />}
      <div className={classes.column}>
        {speaker && <div className={classes.speakerName}>{speaker.name}</div>}
        <div className={`${classes.bubble} ${classes.bubbleAssistant}`}>{props.body}</div>
        {props.after}
        {props.meta && <div className={classes.meta}>{props.meta}</div>}
      </div>
    </article>
  );
}

export function GreetingBubble() {
  return <AssistantRow label={chatViewTexts.speakerCoach} body={<PlainText text={chatViewTexts.greeting} />} />;
}

export function UserBubble(props: { content: string; createdAt?: string; pending?: boolean }) {
  return (
    <article className={`${classes.row} ${classes.rowUser}`} aria-label={chatViewTexts.speakerUser}>
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
export function TypingBubble(props: { speaker?: Speaker | null }) {
  return <AssistantRow label={chatViewTexts.speakerCoach} busy body={<TypingIndicator />} speaker={props.speaker} />;
}

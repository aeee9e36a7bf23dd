import { Button } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { IconMail } from '@tabler/icons-react';
import { IconPencil } from '@tabler/icons-react';
import { chatTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { agendaCalendarFile, agendaMailtoLink } from './agenda';
import classes from './chat.module.css';
import { downloadFile } from '../../lib/downloadFile';
import { useMeetingAgendaActions } from '../meetings/meetingAgenda';

const [saveLabel, emailLabel, modifyLabel] = chatTexts.agendaButtons;

async function saveToCalendar(text: string) {
  try {
    downloadFile(chatTexts.agendaFileName, await agendaCalendarFile(text), 'text/calendar;charset=utf-8');
  } catch {
    notify.error(chatTexts.agendaSaveFailed);
  }
}

// Long labels wrap on narrow screens instead of being cut off.
const wrapping = { root: { height: 'auto', minHeight: 30, paddingTop: 5, paddingBottom: 5 }, label: { whiteSpace: 'normal' as const, textAlign: 'left' as const } };

// Under a reply that mentions an agenda: save it as a calendar event, email it, or ask for changes.
// In a prep chat the first two act on the real meeting through Graph, after a confirmation.
export function AgendaActions(props: { text: string; chatId: number; onModify: () => void }) {
  const meeting = useMeetingAgendaActions(props.chatId, props.text);
  // In a prep chat both act on the meeting; elsewhere they save a file and open a mail draft. Until
  // the chat's meeting is known, a click waits for it rather than guess.
  const onSave = async () => ((await meeting.loadPrep()) ? meeting.ask('save') : saveToCalendar(props.text));
  const onEmail = async () => ((await meeting.loadPrep()) ? meeting.ask('email') : window.location.assign(agendaMailtoLink(props.text)));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row of buttons, not a form: a fieldset would add form semantics
    <div className={classes.agendaActions} role="group" aria-label={chatTexts.agendaActionsLabel}>
      <Button
        size="xs"
        variant="light"
        styles={wrapping}
        leftSection={<IconCalendarPlus size={14} aria-hidden />}
        onClick={() => void onSave()}
      >
        {saveLabel}
      </Button>
      {meeting.prep || !meeting.known ? (
        <Button size="xs" variant="light" styles={wrapping} leftSection={<IconMail size={14} aria-hidden />} onClick={() => void onEmail()}>
          {emailLabel}
        </Button>
      ) : (
        <Button
          size="xs"
          variant="light"
          styles={wrapping}
          component="a"
          href={agendaMailtoLink(props.text)}
          leftSection={<IconMail size={14} aria-hidden />}
        >
          {emailLabel}
        </Button>
      )}
      <Button size="xs" variant="light" styles={wrapping} leftSection={<IconPencil size={14} aria-hidden />} onClick={props.onModify}>
        {modifyLabel}
      </Button>
      {meeting.confirm}
    </div>
  );
}

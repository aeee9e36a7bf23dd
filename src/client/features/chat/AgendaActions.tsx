import { Button } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { IconMail } from '@tabler/icons-react';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { chatTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { agendaCalendarFile, agendaText } from './agenda';
import { AgendaMeetingPicker, type PickFor } from './AgendaMeetingPicker';
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

// Under a reply that mentions an agenda: save it to an invite, email it, or ask the coach to change it.
// In a prep chat the first two act on the chat's meeting through Graph, after a confirmation;
// elsewhere they ask which of the week's meetings the agenda is for (or offer a calendar file and a
// mail draft, saying what each is). What they send is the agenda, not the coach's words around it.
export function AgendaActions(props: { text: string; chatId: number; onModify: () => void }) {
  const agenda = agendaText(props.text);
  const meeting = useMeetingAgendaActions(props.chatId, agenda);
  const [picking, setPicking] = useState<PickFor | null>(null);
  // Until the chat's meeting is known, a click waits for it rather than guess.
  const onSave = async () => ((await meeting.loadPrep()) ? meeting.ask('save') : setPicking('save'));
  const onEmail = async () => ((await meeting.loadPrep()) ? meeting.ask('email') : setPicking('email'));
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
      <Button size="xs" variant="light" styles={wrapping} leftSection={<IconMail size={14} aria-hidden />} onClick={() => void onEmail()}>
        {emailLabel}
      </Button>
      <Button size="xs" variant="light" styles={wrapping} leftSection={<IconPencil size={14} aria-hidden />} onClick={props.onModify}>
        {modifyLabel}
      </Button>
      {meeting.confirm}
      {picking && <AgendaMeetingPicker pickFor={picking} text={props.text} onClose={() => setPicking(null)} onDownload={() => void saveToCalendar(props.text)} />}
    </div>
  );
}

import { Button } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { IconMail } from '@tabler/icons-react';
import { IconPencil } from '@tabler/icons-react';
import { chatTexts } from '../../../shared/texts';
import { agendaCalendarFile, agendaMailtoLink } from './agenda';
import classes from './chat.module.css';
import { downloadFile } from './conversationExport';

const [saveLabel, emailLabel, modifyLabel] = chatTexts.agendaButtons;

// Long labels wrap on narrow screens instead of being cut off.
const wrapping = { root: { height: 'auto', minHeight: 30, paddingTop: 5, paddingBottom: 5 }, label: { whiteSpace: 'normal' as const, textAlign: 'left' as const } };

// Under a reply that mentions an agenda: save it as a calendar event, email it, or ask for changes.
export function AgendaActions(props: { text: string; onModify: () => void }) {
  return (
    <div className={classes.agendaActions} role="group" aria-label={chatTexts.agendaActionsLabel}>
      <Button
        size="xs"
        variant="light"
        styles={wrapping}
        leftSection={<IconCalendarPlus size={14} aria-hidden />}
        onClick={() => downloadFile(chatTexts.agendaFileName, agendaCalendarFile(props.text), 'text/calendar;charset=utf-8')}
      >
        {saveLabel}
      </Button>
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
      <Button size="xs" variant="light" styles={wrapping} leftSection={<IconPencil size={14} aria-hidden />} onClick={props.onModify}>
        {modifyLabel}
      </Button>
    </div>
  );
}

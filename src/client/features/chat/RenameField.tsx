import { TextInput } from '@mantine/core';
import { useRef, useState, type KeyboardEvent } from 'react';
import { chatTexts } from '../../../shared/texts';
import type { ChatDto } from './chatCache';

// Loaded when a chat is renamed (RecentChats.tsx), not with the sidebar.

/** Inline title editing: Enter saves, Escape cancels, leaving the field saves a valid title. */
export function RenameField(props: { chat: ChatDto; onRename: (title: string) => string | null; onDone: () => void }) {
  const [value, setValue] = useState(props.chat.title);
  const [error, setError] = useState<string | null>(null);
  const finished = useRef(false);

  const finish = () => {
    finished.current = true;
    props.onDone();
  };
  const save = () => {
    if (finished.current) return;
    const problem = props.onRename(value);
    if (problem) setError(problem);
    else finish();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish();
    }
  };

  return (
    <TextInput
      size="xs"
      w="100%"
      px={4}
      py={2}
      autoFocus
      aria-label={chatTexts.renameLabel}
      value={value}
      error={error}
      onChange={(event) => {
        setValue(event.currentTarget.value);
        setError(null);
      }}
      onFocus={(event) => event.currentTarget.select()}
      onKeyDown={onKeyDown}
      onBlur={() => {
        if (finished.current) return;
        // Leaving the field saves a valid title; an invalid one is dropped and the old one stays.
        props.onRename(value);
        finish();
      }}
    />
  );
}

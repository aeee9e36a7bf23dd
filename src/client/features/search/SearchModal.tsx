import '@mantine/core/styles/Kbd.css';
import { Alert, Group, Kbd, Loader, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { searchLimits } from '../../../shared/limits';
import type { SearchResult } from '../../../shared/schemas/memories';
import { memoryTexts } from '../../../shared/texts';
import { trpc } from '../../lib/trpc';
import hintClasses from '../../components/keyboardHint.module.css';
import { snippetParts } from './snippet';


// The search dialog, loaded when first opened (SearchDialog.tsx).
export function SearchModal(props: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={memoryTexts.searchTitle} size="lg" yOffset="10vh">
      {props.opened && <SearchPanel onDone={props.onClose} />}
    </Modal>
  );
}

function SearchPanel(props: { onDone: () => void }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), 200);
  const [active, setActive] = useState(0);
  const listId = useId();
  const enabled = q.length >= searchLimits.minQuery && q.length <= searchLimits.maxQuery;
  const search = useQuery({ ...trpc.search.messages.queryOptions({ q }), enabled, placeholderData: (previous) => previous });
  const results = enabled ? (search.data?.results ?? []) : [];
  useEffect(() => setActive(0), [q]);

  const open = (result: SearchResult) => {
    props.onDone();
    void navigate({ to: '/app', search: { chat: result.chatId, message: result.messageId } });
  };
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (!results.length) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => (i + 1) % results.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => (i - 1 + results.length) % results.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const result = results[active];
      if (result) open(result);
    }
  };

  return (
    <Stack gap="sm">
      <TextInput
        aria-label={memoryTexts.searchTitle}
        placeholder={memoryTexts.searchPlaceholder}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={search.isFetching ? <Loader size="xs" aria-label="Loading" /> : null}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        maxLength={searchLimits.maxQuery}
        data-autofocus
        role="combobox"
        aria-expanded={results.length > 0}
        aria-controls={listId}
        aria-activedescendant={results.length ? `${listId}-${active}` : undefined}
        aria-autocomplete="list"
      />
      {!enabled ? (
        <Text size="sm" c="dimmed">
          {memoryTexts.searchHint}
        </Text>
      ) : search.isError ? (
        <Alert color="red">{memoryTexts.searchFailed}</Alert>
      ) : search.data && !search.isFetching && results.length === 0 ? (
        <Text size="sm" c="dimmed">
          {memoryTexts.searchEmpty}
        </Text>
      ) : null}
      {/* biome-ignore lint/a11y/useSemanticElements: a listbox of rich options, driven from the input (combobox pattern) */}
      <div id={listId} role="listbox" aria-label={memoryTexts.searchTitle} style={{ maxHeight: '55vh', overflowY: 'auto' }}>
        {results.map((result, index) => (
          <UnstyledButton
            key={result.messageId}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            tabIndex={-1}
            onMouseEnter={() => setActive(index)}
            onClick={() => open(result)}
            p="xs"
            w="100%"
            style={{ display: 'block', borderRadius: 8, background: index === active ? 'var(--mantine-color-default-hover)' : undefined }}
          >
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" fw={600} truncate>
                {result.chatTitle}
              </Text>
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                {new Date(result.createdAt).toLocaleDateString()}
              </Text>
            </Group>
            <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }} data-snippet>
              {snippetParts(result.snippet).map((part, i) =>
                part.marked ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed snippet
                  <mark key={i}>{part.text}</mark>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed snippet
                  <span key={i}>{part.text}</span>
                ),
              )}
            </Text>
          </UnstyledButton>
        ))}
      </div>
      <Group gap={4} className={hintClasses.keyboardHint} data-keyboard-hint>
        <Kbd size="xs">↑</Kbd>
        <Kbd size="xs">↓</Kbd>
        <Kbd size="xs">Enter</Kbd>
      </Group>
    </Stack>
  );
}

import { ActionIcon, Group, Input, Text, useComputedColorScheme } from '@mantine/core';
import { IconArrowUp } from '@tabler/icons-react';
import { IconInfoCircle } from '@tabler/icons-react';
import { IconPlayerStopFilled } from '@tabler/icons-react';
import { IconBulb } from '@tabler/icons-react';
import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type ChangeEvent, type KeyboardEvent, type Ref } from 'react';
import { chatLimits } from '../../../shared/constants';
import { chatViewTexts } from '../../../shared/texts';
import { LazyMenu, LazyTooltip } from '../../components/LazyFloating';
import { draftOf, keepDraft, type DraftKey } from '../../lib/composerDrafts';
import { takeEarlyInput, type EarlyInput } from '../../lib/earlyInput';
import { preloadSocket } from '../../lib/socketLoader';
import { VoiceCallButton } from '../voice/VoiceCallButton';
import classes from './chat.module.css';
import { autosizeTextarea, cssAutosize } from './composerInput';

export type ChatComposerHandle = {
  /** Puts text into the input (replacing what is there) and focuses it, caret at the end. */
  fill: (text: string) => void;
  focus: () => void;
};

// Show the characters left only near the limit.
const counterFrom = chatLimits.messageMax - 500;

/**
 * The message input. Enter sends, Shift+Enter starts a new line. Sending is blocked while a reply
 * runs (typing is not); while one streams, Stop takes the place of Send.
 */
export function ChatComposer(props: {
  ref?: Ref<ChatComposerHandle>;
  /** Returns false when the message was not taken (the text then stays in the input). */
  onSend: (text: string) => boolean;
  blocked: boolean;
  streaming: boolean;
  onStop: () => void;
  stopping: boolean;
  offline: boolean;
  onQuickStart: (message: string) => void;
  /** The open chat, whose context a voice call from the microphone button continues; absent for a new conversation. */
  chatId?: number;
  /**
   * Drawn in /app's prerendered placeholder (AppShellPlaceholder): the input can be typed into
   * (the app takes what was typed, lib/earlyInput.ts), its buttons cannot be used.
   */
  placeholder?: boolean;
  /** The input's hint, when not the coach's ('Open the conversation' in a rehearsal). */
  hint?: string;
}) {
  // Unsent text is kept per conversation (composerDrafts.ts): leaving a chat loses nothing typed.
  const draftKey: DraftKey = props.chatId ?? 'new';
  const [value, setValue] = useState(() => draftOf(draftKey));
  useEffect(() => keepDraft(draftKey, value), [draftKey, value]);
  const colorScheme = useComputedColorScheme('light');
  const inputRef = useRef<HTMLTextAreaElement>(null);
  // Where the browser cannot size the input itself, Mantine's Textarea (loaded by /app's loader).
  const AutosizeTextarea = autosizeTextarea();

  useImperativeHandle(
    props.ref,
    () => ({
      fill: (text: string) => {
        setValue(text);
        requestAnimationFrame(() => {
          const input = inputRef.current;
          if (!input) return;
          input.focus();
          input.setSelectionRange(input.value.length, input.value.length);
        });
      },
      focus: () => inputRef.current?.focus(),
    }),
    [],
  );

  // What was typed into the prerendered placeholder's input before the app took over:
  // taken in the commit that removes the placeholder, with the caret where it was and the focus
  // if it had it; an Enter pressed there sends it now.
  const adopted = useRef<EarlyInput | null>(null);
  const sendAdopted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount, by design
  useLayoutEffect(() => {
    if (props.placeholder) return;
    const early = takeEarlyInput();
    if (!early || (!early.value && !early.focused)) return;
    adopted.current = early;
    if (!early.value) return;
    setValue(early.value);
    // Typed into the placeholder, so no key reached onKeyDown below: the WebSocket client that
    // carries the reply loads now, as it does while typing into this input.
    preloadSocket();
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: after each commit of a new value, until the taken text is in the input
  useLayoutEffect(() => {
    const early = adopted.current;
    const input = inputRef.current;
    if (!early || !input || input.value !== early.value) return;
    adopted.current = null;
    if (early.focused) input.focus({ preventScroll: true });
    input.setSelectionRange(early.selectionStart, early.selectionEnd, early.selectionDirection);
    sendAdopted.current = early.send;
  }, [value]);

  // Ready to type on opening a conversation, where that does not pop up a phone's keyboard.
  useEffect(() => {
    if (window.matchMedia('(pointer: fine)').matches) inputRef.current?.focus({ preventScroll: true });
  }, []);

  const trimmed = value.trim();
  const tooLong = value.length > chatLimits.messageMax;
  const canSend = !!trimmed && !tooLong && !props.blocked;

  // A message sent while a send cannot happen yet (a reply still streaming, or being stopped: the
  // chat is blocked until the server has stored the stopped reply) waits here, said so under the
  // input, and goes as soon as the chat takes it: an Enter is never silently dropped.
  const [queued, setQueued] = useState(false);
  const submit = () => {
    if (!trimmed || tooLong) return;
    if (props.blocked || !props.onSend(trimmed)) {
      setQueued(true);
      return;
    }
    setValue('');
    setQueued(false);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: sends the waiting message once the chat is free
  useEffect(() => {
    if (!queued) return;
    if (!trimmed || tooLong) setQueued(false);
    else if (!props.blocked) submit();
  }, [queued, props.blocked, trimmed, tooLong]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after the commit that took the placeholder's text
  useEffect(() => {
    if (!sendAdopted.current) return;
    sendAdopted.current = false;
    submit();
  }, [value]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // The reply to what is being typed streams over the WebSocket: its client loads meanwhile.
    preloadSocket();
    // Enter while composing (an IME) picks a candidate; it does not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  // The same input either way (composerInput.ts): only how it grows differs.
  const inputProps = {
    ref: inputRef,
    className: classes.composerInput,
    variant: 'unstyled',
    'aria-label': chatViewTexts.inputLabel,
    placeholder: props.hint ?? chatViewTexts.inputPlaceholder,
    value,
    onChange: (event: ChangeEvent<HTMLTextAreaElement>) => setValue(event.currentTarget.value),
    onKeyDown,
    error: tooLong || undefined,
  } as const;

  return (
    <div className={classes.composerBar}>
      <div className={classes.composerInner}>
        {props.offline && (
          <Group gap={6} mb={6} wrap="nowrap" align="flex-start">
            <IconInfoCircle size={14} aria-hidden style={{ flexShrink: 0, marginTop: 2, color: 'var(--mantine-color-dimmed)' }} />
            <Text size="xs" c="dimmed" visibleFrom="sm">
              {chatViewTexts.offlineCoachNotice}
            </Text>
            <Text size="xs" c="dimmed" hiddenFrom="sm" title={chatViewTexts.offlineCoachNotice}>
              {chatViewTexts.offlineCoachShort}
            </Text>
          </Group>
        )}
        <form
          className={classes.composerBox}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <LazyMenu
            position="top-start"
            width={280}
            withinPortal
            target={
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                radius="xl"
                className={classes.toolsButton}
                aria-label={chatViewTexts.coachingToolsMenu}
                disabled={props.blocked}
                inert={props.placeholder}
              >
                <IconBulb size={18} />
              </ActionIcon>
            }
            dropdown={(Menu) => (
              <>
                <Menu.Label>{chatViewTexts.coachingToolsTitle}</Menu.Label>
                {chatViewTexts.quickStarts.map((tool) => (
                  <Menu.Item key={tool.id} onClick={() => props.onQuickStart(tool.message)}>
                    {tool.label}
                  </Menu.Item>
                ))}
              </>
            )}
          />
          {AutosizeTextarea ? (
            <AutosizeTextarea {...inputProps} classNames={{ input: classes.composerTextarea }} autosize minRows={1} maxRows={8} />
          ) : (
            <Input
              {...inputProps}
              component="textarea"
              multiline
              rows={1}
              classNames={{ input: `${classes.composerTextarea} ${cssAutosize ? classes.composerTextareaCss : ''}` }}
            />
          )}
          {props.placeholder ? (
            <span inert style={{ display: 'contents' }}>
              <VoiceCallButton chatId={props.chatId} />
            </span>
          ) : (
            <VoiceCallButton chatId={props.chatId} />
          )}
          {props.streaming ? (
            <LazyTooltip label={chatViewTexts.stop} openDelay={700}>
              <ActionIcon
                type="button"
                size="lg"
                radius="xl"
                variant="filled"
                // High contrast in both colour schemes.
                color={colorScheme === 'dark' ? 'gray.1' : 'dark.7'}
                autoContrast
                aria-label={chatViewTexts.stop}
                onClick={props.onStop}
                loading={props.stopping}
              >
                <IconPlayerStopFilled size={14} />
              </ActionIcon>
            </LazyTooltip>
          ) : (
            <LazyTooltip label={chatViewTexts.send} openDelay={700}>
              <ActionIcon type="submit" size="lg" radius="xl" variant="filled" aria-label={chatViewTexts.send} disabled={!canSend} inert={props.placeholder}>
                <IconArrowUp size={18} />
              </ActionIcon>
            </LazyTooltip>
          )}
        </form>
        {queued && (
          <Text size="xs" c="dimmed" mt={4} role="status">
            {chatViewTexts.sendQueued}
          </Text>
        )}
        {/* The placeholder's input waits for the app: once Enter has marked its text to send (lib/earlyInput.ts), this says so (CSS shows it). */}
        {props.placeholder && (
          <Text size="xs" c="dimmed" mt={4} role="status" className={classes.earlySendNotice}>
            {chatViewTexts.sendQueued}
          </Text>
        )}
        {value.length > counterFrom && (
          <Text size="xs" c={tooLong ? 'red' : 'dimmed'} mt={4} ta="right" aria-live="polite">
            {tooLong ? chatViewTexts.messageTooLong(chatLimits.messageMax) : chatViewTexts.charactersLeft(chatLimits.messageMax - value.length)}
          </Text>
        )}
      </div>
    </div>
  );
}

import { ActionIcon, Button, Group, Modal, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconDots, IconMasksTheater } from '@tabler/icons-react';
import { IconPencil } from '@tabler/icons-react';
import { IconPin } from '@tabler/icons-react';
import { IconPinnedOff } from '@tabler/icons-react';
import { IconPinFilled } from '@tabler/icons-react';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { chatLimits } from '../../../shared/constants';
import { chatViewTexts, rehearsalShellTexts } from '../../../shared/texts';
import { LazyMenu } from '../../components/LazyFloating';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import classes from './chat.module.css';
import { forgetMessages, removeChat, upsertChat, type ChatDto } from './chatCache';

// The title field opens from the chat's menu: its code (and Mantine's TextInput) loads then.
const loadRenameField = () => import('./RenameField');
const RenameField = lazy(() => loadRenameField().then((module) => ({ default: module.RenameField })));

/**
 * The sidebar's Recent Chats: pinned first, then the most recent; the open chat highlighted. Each
 * has a menu to rename (inline), pin or unpin, and delete (after a confirmation).
 */
export function RecentChats(props: { onNavigate: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const list = useQuery(trpc.chats.list.queryOptions());
  const onChatPage = useLocation({ select: (location) => location.pathname === '/app' });
  const searchChat = useSearch({ strict: false, select: (search) => (search as { chat?: unknown }).chat });
  const activeId = onChatPage && typeof searchChat === 'number' ? searchChat : undefined;
  const [renamingId, setRenamingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<ChatDto | null>(null);
  const update = useMutation(trpc.chats.update.mutationOptions());
  const remove = useMutation(trpc.chats.delete.mutationOptions());

  /** Returns a validation message, or null when the title was taken. */
  const rename = (chat: ChatDto, title: string): string | null => {
    // The server's titleSchema (shared/schemas/chats.ts) checked by hand, with its messages: the
    // sidebar is part of every first visit to /app, zod is not.
    const next = title.trim();
    if (!next) return chatViewTexts.titleRequired;
    if (next.length > chatLimits.titleMax) return chatViewTexts.titleTooLong(chatLimits.titleMax);
    if (next === chat.title) return null;
    upsertChat(queryClient, { ...chat, title: next });
    update.mutate(
      { chatId: chat.id, title: next },
      {
        onSuccess: (saved) => upsertChat(queryClient, saved),
        onError: () => {
          upsertChat(queryClient, chat);
          notify.error(chatViewTexts.errorTitle, chatViewTexts.renameFailed);
        },
      },
    );
    return null;
  };

  const togglePin = (chat: ChatDto) => {
    upsertChat(queryClient, { ...chat, isPinned: !chat.isPinned });
    update.mutate(
      { chatId: chat.id, isPinned: !chat.isPinned },
      {
        onSuccess: (saved) => upsertChat(queryClient, saved),
        onError: () => {
          upsertChat(queryClient, chat);
          notify.error(chatViewTexts.errorTitle, chatViewTexts.pinFailed);
        },
      },
    );
  };

  const confirmDelete = () => {
    const chat = deleting;
    if (!chat) return;
    remove.mutate(
      { chatId: chat.id },
      {
        onSuccess: async () => {
          setDeleting(null);
          removeChat(queryClient, chat.id);
          // Leave the deleted chat before dropping its messages, so that nothing asks for them again.
          if (chat.id === activeId) await navigate({ to: '/app', search: { new: true }, replace: true });
          forgetMessages(queryClient, chat.id);
        },
        onError: () => notify.error(chatViewTexts.errorTitle, chatViewTexts.deleteFailed),
      },
    );
  };

  if (list.isPending) {
    return (
      // A status, so "Loading chats" is read out; a label on an element without a role is not allowed
      // (axe flagged it when it ran while the list loaded).
      <Stack gap={8} role="status" aria-busy="true" px={4} py={4}>
        <VisuallyHidden>{chatViewTexts.loadingChats}</VisuallyHidden>
        {[80, 65, 90, 55].map((width) => (
          <Skeleton key={width} height={14} width={`${width}%`} radius="sm" />
        ))}
      </Stack>
    );
  }
  // The product spec's error catalogue: a failure to load chats is not shown.
  if (list.isError) return null;
  if (!list.data.length) {
    return (
      <Text size="sm" c="dimmed" px={10} py={4}>
        {chatViewTexts.noChats}
      </Text>
    );
  }

  return (
    <>
      <Stack component="ul" gap={2} m={0} p={0} style={{ listStyle: 'none' }}>
        {list.data.map((chat) => (
          <li key={chat.id} className={`${classes.chatItem} ${chat.id === activeId ? classes.chatItemActive : ''}`}>
            {renamingId === chat.id ? (
              <Suspense
                fallback={
                  <Text span size="sm" truncate="end" className={classes.chatLink}>
                    {chat.title}
                  </Text>
                }
              >
                <RenameField chat={chat} onRename={(title) => rename(chat, title)} onDone={() => setRenamingId(null)} />
              </Suspense>
            ) : (
              <>
                <Link
                  to="/app"
                  search={{ chat: chat.id }}
                  className={classes.chatLink}
                  onClick={props.onNavigate}
                  aria-current={chat.id === activeId ? 'page' : undefined}
                  title={chat.title}
                >
                  {chat.isPinned && <IconPinFilled size={13} role="img" aria-label={chatViewTexts.pinned} style={{ flexShrink: 0 }} />}
                  {chat.isRehearsal && <IconMasksTheater size={13} role="img" aria-label={rehearsalShellTexts.rehearsalBadge} style={{ flexShrink: 0 }} />}
                  <Text span size="sm" truncate="end" inherit>
                    {chat.title}
                  </Text>
                </Link>
                <ChatMenu
                  chat={chat}
                  onRename={() => {
                    void loadRenameField().catch(() => undefined);
                    setRenamingId(chat.id);
                  }}
                  onTogglePin={() => togglePin(chat)}
                  onDelete={() => setDeleting(chat)}
                />
              </>
            )}
          </li>
        ))}
      </Stack>
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={chatViewTexts.deleteConfirmTitle}
        centered
        size="sm"
      >
        <Text size="sm" mb="lg">
          {deleting ? chatViewTexts.deleteConfirmBody(deleting.title) : ''}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setDeleting(null)}>
            {chatViewTexts.cancel}
          </Button>
          <Button color="red" onClick={confirmDelete} loading={remove.isPending} data-autofocus>
            {chatViewTexts.delete}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

function ChatMenu(props: { chat: ChatDto; onRename: () => void; onTogglePin: () => void; onDelete: () => void }) {
  const { chat } = props;
  return (
    // Focus is not handed back to the button: Rename moves it into the title field.
    <LazyMenu
      position="bottom-end"
      width={180}
      withinPortal
      returnFocus={false}
      target={
        <ActionIcon variant="subtle" color="gray" size="sm" mr={4} className={classes.chatMenuButton} aria-label={chatViewTexts.chatOptions(chat.title)}>
          <IconDots size={16} />
        </ActionIcon>
      }
      dropdown={(Menu) => (
        <>
          <Menu.Item leftSection={<IconPencil size={14} />} onClick={props.onRename}>
            {chatViewTexts.rename}
          </Menu.Item>
          <Menu.Item leftSection={chat.isPinned ? <IconPinnedOff size={14} /> : <IconPin size={14} />} onClick={props.onTogglePin}>
            {chat.isPinned ? chatViewTexts.unpin : chatViewTexts.pin}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={props.onDelete}>
            {chatViewTexts.delete}
          </Menu.Item>
        </>
      )}
    />
  );
}

import { ActionIcon, Alert, Badge, Button, Group, Loader, Modal, Paper, Select, Skeleton, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { IconBrain, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { memoryKinds, memoryLimits, type MemoryKind, type MemoryView } from '../../../shared/schemas/memories';
import { commonTexts, memoryShellTexts, memoryTexts } from '../../../shared/texts';
import { PageFrame } from '../../components/shell/PageFrame';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';
import { SampleBadge } from '../../components/SampleBadge';

// /memory: every memory grouped by kind, to edit or delete; the on/off switch; and
// 'Forget everything', confirmed.
export function MemoryPage() {
  const queryClient = useQueryClient();
  const memories = useQuery(trpc.memories.list.queryOptions());
  const settings = useQuery(trpc.memories.settings.queryOptions());
  const [editing, setEditing] = useState<MemoryView | 'new' | null>(null);
  const [forgetting, setForgetting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.memories.list.queryKey() });

  const setEnabled = useMutation(
    trpc.memories.setSettings.mutationOptions({
      onSuccess: (data) => queryClient.setQueryData(trpc.memories.settings.queryKey(), data),
      onError: (error) => notify.error(commonTexts.genericError, errorMessage(error, commonTexts.genericError)),
    }),
  );
  const restore = useMutation(
    trpc.memories.restore.mutationOptions({
      onSuccess: () => {
        notify.success(memoryTexts.restored);
        void refresh();
      },
      onError: (error) => notify.error(commonTexts.genericError, errorMessage(error, commonTexts.genericError)),
    }),
  );
  // A delete is done at once and says so, with Undo (as the chat's 'Memory updated'
  // note has), which puts the memory back exactly as it was.
  const remove = useMutation(
    trpc.memories.delete.mutationOptions({
      onSuccess: ({ restoreToken }) => {
        notify.success(
          memoryTexts.deleted,
          <Button variant="subtle" size="compact-sm" mt={4} onClick={() => restore.mutate({ restoreToken })}>
            {memoryShellTexts.undo}
          </Button>,
        );
        void refresh();
      },
      onError: (error) => notify.error(commonTexts.genericError, errorMessage(error, commonTexts.genericError)),
    }),
  );

  let body: React.ReactNode;
  if (memories.isPending) body = <Skeleton h={160} radius="md" aria-label="Loading" />;
  else if (memories.isError) {
    body = (
      <Alert color="red" title={memoryTexts.loadFailed}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{errorMessage(memories.error, commonTexts.genericError)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void memories.refetch()} loading={memories.isFetching}>
            {memoryTexts.retry}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (memories.data.memories.length === 0) {
    body = (
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="xs" align="flex-start">
          <IconBrain size={32} aria-hidden />
          <Title order={2} size="h3">
            {memoryTexts.emptyTitle}
          </Title>
          <Text c="dimmed">{memoryTexts.emptyBody}</Text>
        </Stack>
      </Paper>
    );
  } else {
    body = (
      <Stack gap="xl">
        {memoryKinds.map((kind) => {
          const group = memories.data.memories.filter((m) => m.kind === kind);
          if (!group.length) return null;
          return (
            <Stack key={kind} gap="xs" component="section" aria-labelledby={`memory-${kind}`}>
              <Title order={2} size="h5" c="dimmed" tt="uppercase" id={`memory-${kind}`}>
                {memoryTexts.kinds[kind]}
              </Title>
              {group.map((memory) => (
                <Paper key={memory.id} withBorder radius="md" p="sm" component="article">
                  <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
                    <Stack gap={4} style={{ minWidth: 0 }}>
                      <Text style={{ overflowWrap: 'anywhere' }}>{memory.text}</Text>
                      {(memory.dueAt || memory.doneAt || memory.sample) && (
                        <Group gap="xs">
                          {memory.sample && (
                            <SampleBadge size="xs" />
                          )}
                          {memory.dueAt && (
                            <Text size="xs" c="dimmed">
                              {memoryTexts.due(new Date(memory.dueAt).toLocaleDateString())}
                            </Text>
                          )}
                          {memory.doneAt && (
                            <Badge size="xs" color="teal" variant="light">
                              {memoryTexts.done}
                            </Badge>
                          )}
                        </Group>
                      )}
                    </Stack>
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon variant="subtle" aria-label={memoryTexts.editMemoryNamed(memory.text)} onClick={() => setEditing(memory)}>
                        <IconPencil size={16} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={memoryTexts.deleteMemory(memory.text)}
                        loading={remove.isPending && remove.variables?.memoryId === memory.id}
                        onClick={() => remove.mutate({ memoryId: memory.id })}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Group>
                  </Group>
                </Paper>
              ))}
            </Stack>
          );
        })}
      </Stack>
    );
  }

  const enabled = settings.data?.enabled ?? true;
  return (
    <PageFrame
      title={memoryTexts.pageTitle}
      subtitle={memoryTexts.pageSubtitle}
      action={
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          {memoryTexts.addMemory}
        </Button>
      }
      after={
        <>
          <MemoryFormModal target={editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />
          <ForgetEverythingModal opened={forgetting} onClose={() => setForgetting(false)} onDone={() => void refresh()} />
        </>
      }
    >
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" align="center" gap="sm">
          <Switch
            label={memoryTexts.switchLabel}
            description={enabled ? memoryTexts.switchOnDescription : memoryTexts.switchOffDescription}
            checked={enabled}
            disabled={settings.isPending || setEnabled.isPending}
            onChange={(event) => setEnabled.mutate({ enabled: event.currentTarget.checked })}
            style={{ flex: '1 1 260px' }}
          />
          {settings.isPending && <Loader size="xs" aria-label="Loading" />}
          <Button variant="light" color="red" onClick={() => setForgetting(true)} disabled={!memories.data?.memories.length}>
            {memoryTexts.forgetEverything}
          </Button>
        </Group>
      </Paper>
      {body}
    </PageFrame>
  );
}

function MemoryFormModal(props: { target: MemoryView | 'new' | null; onClose: () => void; onSaved: () => void }) {
  const { target } = props;
  const editing = target && target !== 'new' ? target : null;
  return (
    <Modal opened={target !== null} onClose={props.onClose} title={editing ? memoryTexts.editMemory : memoryTexts.addMemory} centered>
      {target !== null && <MemoryForm key={editing?.id ?? 'new'} memory={editing} onClose={props.onClose} onSaved={props.onSaved} />}
    </Modal>
  );
}

function MemoryForm(props: { memory: MemoryView | null; onClose: () => void; onSaved: () => void }) {
  const [text, setText] = useState(props.memory?.text ?? '');
  const [kind, setKind] = useState<MemoryKind>(props.memory?.kind ?? 'fact');
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(trpc.memories.create.mutationOptions());
  const update = useMutation(trpc.memories.update.mutationOptions());
  const save = async () => {
    setError(null);
    try {
      if (props.memory) await update.mutateAsync({ memoryId: props.memory.id, text, kind });
      else await create.mutateAsync({ text, kind });
      notify.success(memoryTexts.saved);
      props.onSaved();
      props.onClose();
    } catch (cause) {
      setError(errorMessage(cause, commonTexts.genericError));
    }
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack gap="md">
        <Textarea
          label={memoryTexts.newMemoryLabel}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          maxLength={memoryLimits.maxText}
          autosize
          minRows={2}
          error={error}
          data-autofocus
          required
        />
        <Select
          label={memoryTexts.kindLabel}
          data={memoryKinds.map((k) => ({ value: k, label: memoryTexts.kindSingular[k] }))}
          value={kind}
          onChange={(value) => value && setKind(value as MemoryKind)}
          allowDeselect={false}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onClose}>
            {memoryTexts.cancel}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {memoryTexts.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ForgetEverythingModal(props: { opened: boolean; onClose: () => void; onDone: () => void }) {
  const forget = useMutation(trpc.memories.deleteAll.mutationOptions());
  const confirm = async () => {
    try {
      await forget.mutateAsync();
      notify.success(memoryTexts.forgotten);
      props.onDone();
      props.onClose();
    } catch (error) {
      notify.error(commonTexts.genericError, errorMessage(error, commonTexts.genericError));
    }
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={memoryTexts.forgetTitle} centered>
      <Stack gap="md">
        <Text size="sm">{memoryTexts.forgetBody}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onClose} data-autofocus>
            {memoryTexts.cancel}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={forget.isPending}>
            {memoryTexts.forgetConfirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

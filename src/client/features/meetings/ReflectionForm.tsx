import { Button, Card, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { meetingLimits } from '../../../shared/limits';
import { meetingsTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

/** 'How did it go?' for a prepared meeting that ended in the last day; the answer goes to its prep chat. */
export function ReflectionForm(props: { meetingId: string; subject: string; openChat?: boolean }) {
  const [text, setText] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const reflect = useMutation(
    trpc.meetings.reflect.mutationOptions({
      onSuccess: async ({ chatId }) => {
        notify.success(meetingsTexts.reflectionSent);
        await queryClient.invalidateQueries({ queryKey: trpc.meetings.pathKey() });
        if (props.openChat) await navigate({ to: '/app', search: { chat: chatId } });
      },
      onError: (error) => notify.error(meetingsTexts.howDidItGo, errorMessage(error, meetingsTexts.fetchError)),
    }),
  );
  const trimmed = text.trim();
  return (
    <Card withBorder radius="md" padding="sm" bg="var(--mantine-color-blue-light)">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (trimmed) reflect.mutate({ id: props.meetingId, text: trimmed });
        }}
      >
        <Stack gap="xs">
          <Text fw={600}>{meetingsTexts.howDidItGo}</Text>
          <Textarea
            aria-label={`${meetingsTexts.howDidItGo} ${props.subject}`}
            placeholder={meetingsTexts.reflectionPlaceholder}
            autosize
            minRows={2}
            maxLength={meetingLimits.maxReflection}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <div>
            <Button type="submit" size="xs" disabled={!trimmed} loading={reflect.isPending}>
              {meetingsTexts.reflectionSend}
            </Button>
          </div>
        </Stack>
      </form>
    </Card>
  );
}

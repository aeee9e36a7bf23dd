// Interface placeholder: the chat UI work replaces this with the chat page.
import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';

export const Route = createFileRoute('/_app/app')({
  validateSearch: z.object({ new: z.boolean().optional().catch(undefined), chat: z.number().int().positive().optional().catch(undefined) }),
  component: () => null,
});

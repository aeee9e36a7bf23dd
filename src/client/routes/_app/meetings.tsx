import { createFileRoute } from '@tanstack/react-router';
import { MeetingsPage } from '../../features/meetings/MeetingsPage';

// /meetings.
export const Route = createFileRoute('/_app/meetings')({ component: MeetingsPage });

import { createFileRoute } from '@tanstack/react-router';
import { DebriefPage } from '../../features/debriefs/DebriefPage';

// /debrief?meeting={id}: a meeting's debrief (Graph event ids hold '/' and '=', so a search parameter).
export const Route = createFileRoute('/_app/debrief')({
  validateSearch: (search: Record<string, unknown>): { meeting?: string } => ({
    meeting: typeof search.meeting === 'string' && search.meeting.length <= 512 ? search.meeting : undefined,
  }),
  component: DebriefRoute,
});

function DebriefRoute() {
  const { meeting } = Route.useSearch();
  return <DebriefPage key={meeting} meetingId={meeting ?? ''} />;
}

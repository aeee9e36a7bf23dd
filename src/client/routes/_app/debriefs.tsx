import { createFileRoute } from '@tanstack/react-router';
import { TrendsPage } from '../../features/debriefs/TrendsPage';

// /debriefs: the trends over the user's debriefed meetings.
export const Route = createFileRoute('/_app/debriefs')({ component: TrendsPage });

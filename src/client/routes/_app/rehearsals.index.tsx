import { createFileRoute } from '@tanstack/react-router';
import { RehearsalsPage } from '../../features/rehearsals/RehearsalsPage';

// /rehearsals.
export const Route = createFileRoute('/_app/rehearsals/')({ component: RehearsalsPage });

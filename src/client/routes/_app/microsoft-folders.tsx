import { createFileRoute } from '@tanstack/react-router';
import { FoldersPage } from '../../features/microsoft/FoldersPage';

export const Route = createFileRoute('/_app/microsoft-folders')({ component: FoldersPage });

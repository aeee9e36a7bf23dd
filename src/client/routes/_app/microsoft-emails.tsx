import { createFileRoute } from '@tanstack/react-router';
import { EmailManagerPage } from '../../features/microsoft/EmailManagerPage';

export const Route = createFileRoute('/_app/microsoft-emails')({ component: EmailManagerPage });

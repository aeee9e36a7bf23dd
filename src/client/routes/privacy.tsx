import { createFileRoute } from '@tanstack/react-router';
import { legalTexts } from '../../shared/texts';
import { LegalPage } from '../features/legal/LegalPage';

export const Route = createFileRoute('/privacy')({
  component: PrivacyPage,
});

function PrivacyPage() {
  return <LegalPage document={legalTexts.privacy} />;
}

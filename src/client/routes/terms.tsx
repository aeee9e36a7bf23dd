import { Button } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { createFileRoute, Link } from '@tanstack/react-router';
import { legalTexts } from '../../shared/texts';
import { LegalPage } from '../features/legal/LegalPage';

export const Route = createFileRoute('/terms')({
  component: TermsPage,
});

function TermsPage() {
  return (
    <LegalPage
      document={legalTexts.terms}
      actions={
        <Button component={Link} to="/app" size="md" rightSection={<IconArrowRight size={18} aria-hidden />}>
          {legalTexts.goToApp}
        </Button>
      }
    />
  );
}

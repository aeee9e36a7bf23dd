import { Anchor } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { memoryTexts } from '../../../shared/texts';
import { SettingsSection } from '../settings/SettingsSection';

// Settings, Privacy tab: where memory is managed.
export function MemorySettingsLink() {
  return (
    <SettingsSection heading={memoryTexts.settingsHeading} description={memoryTexts.settingsDescription}>
      <Anchor component={Link} to="/memory">
        {memoryTexts.settingsLink}
      </Anchor>
    </SettingsSection>
  );
}

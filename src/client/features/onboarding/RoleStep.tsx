import { NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { onboardingLimits } from '../../../shared/settingsConstants';
import { onboardingTexts } from '../../../shared/texts';
import { type RefObject, useEffect } from 'react';
import type { OnboardingFormApi, StepSave } from './useOnboardingForm';
import { useSaveRoleToProfile } from './useSaveRoleToProfile';

// Step 2. Job title and company are the user's profile fields; the rest stays in this browser.
// Its answers are saved when Next leaves it (OnboardingModal calls what saveRef holds).
export function RoleStep(props: { form: OnboardingFormApi; saveRef: RefObject<StepSave | null> }) {
  const { form, saveRef } = props;
  const saveRole = useSaveRoleToProfile();
  useEffect(() => {
    saveRef.current = saveRole;
    return () => {
      saveRef.current = null;
    };
  });
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={onboardingTexts.jobTitle}
          placeholder={onboardingTexts.jobTitlePlaceholder}
          autoComplete="organization-title"
          data-autofocus
          key={form.key('jobTitle')}
          {...form.getInputProps('jobTitle')}
        />
        <TextInput
          label={onboardingTexts.company}
          autoComplete="organization"
          key={form.key('company')}
          {...form.getInputProps('company')}
        />
        <TextInput
          label={onboardingTexts.manager}
          description={onboardingTexts.optional}
          key={form.key('manager')}
          {...form.getInputProps('manager')}
        />
        <NumberInput
          label={onboardingTexts.directReports}
          description={onboardingTexts.optional}
          min={0}
          max={onboardingLimits.directReportsMax}
          allowNegative={false}
          allowDecimal={false}
          clampBehavior="strict"
          key={form.key('directReports')}
          {...form.getInputProps('directReports')}
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {onboardingTexts.roleNote}
      </Text>
    </Stack>
  );
}

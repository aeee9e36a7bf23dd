import { Checkbox, Select, Stack, Text } from '@mantine/core';
import { calendarAccessOptions, emailHistoryDayOptions } from '../../../shared/settingsConstants';
import { onboardingTexts } from '../../../shared/texts';
import { type RefObject, useEffect } from 'react';
import type { OnboardingFormApi, StepSave } from './useOnboardingForm';
import { useSaveChatHistoryChoice } from './useSaveChatHistoryChoice';

const emailHistoryData = emailHistoryDayOptions.map((days) => ({ value: days, label: onboardingTexts.emailHistoryLabel(days) }));
const calendarAccessData = calendarAccessOptions.map((access) => ({ value: access, label: onboardingTexts.calendarAccessLabels[access] }));

// Step 3: email history and calendar access are kept in this browser only; the chat history
// choice is sent to the account (useSaveChatHistoryChoice) when the setup completes
// (OnboardingModal calls what saveRef holds).
export function PrivacyStep(props: { form: OnboardingFormApi; saveRef: RefObject<StepSave | null> }) {
  const { form, saveRef } = props;
  const saveChatHistoryChoice = useSaveChatHistoryChoice();
  useEffect(() => {
    saveRef.current = (values) => saveChatHistoryChoice(values.saveChatHistory);
    return () => {
      saveRef.current = null;
    };
  });
  return (
    <Stack gap="md">
      <Select
        label={onboardingTexts.emailHistory}
        description={onboardingTexts.emailHistoryDescription}
        data={emailHistoryData}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        key={form.key('emailHistoryDays')}
        {...form.getInputProps('emailHistoryDays')}
      />
      <Select
        label={onboardingTexts.calendarAccess}
        description={onboardingTexts.calendarAccessDescription}
        data={calendarAccessData}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        key={form.key('calendarAccess')}
        {...form.getInputProps('calendarAccess')}
      />
      <Checkbox
        label={onboardingTexts.saveChatHistory}
        key={form.key('saveChatHistory')}
        {...form.getInputProps('saveChatHistory', { type: 'checkbox' })}
      />
      <Text size="xs" c="dimmed">
        {onboardingTexts.privacyNote}
      </Text>
    </Stack>
  );
}

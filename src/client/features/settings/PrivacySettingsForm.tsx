import { Select, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { privacySettingsSchema, type PrivacySettings } from '../../../shared/schemas/profile';
import { dataRetentionOptions } from '../../../shared/settingsConstants';
import { settingsTexts } from '../../../shared/texts';
import { trpc } from '../../lib/trpc';
import { SettingsSection } from './SettingsSection';
import { useSettingsSaved } from './useSettingsSaved';

const retentionData = dataRetentionOptions.map((option) => ({ value: option.value, label: option.label }));

export function PrivacySettingsForm(props: { privacy: PrivacySettings }) {
  const { saved, failed } = useSettingsSaved();
  const update = useMutation(trpc.profile.updatePrivacy.mutationOptions());
  const form = useForm<PrivacySettings>({
    mode: 'uncontrolled',
    initialValues: props.privacy,
    validate: zod4Resolver(privacySettingsSchema, { errorPriority: 'first' }),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const settings = await update.mutateAsync(values);
      form.resetDirty(settings.privacy);
      saved(settings, { title: settingsTexts.privacySavedTitle, message: settingsTexts.privacySavedBody });
    } catch (error) {
      failed(error);
    }
  });

  return (
    <SettingsSection
      heading={settingsTexts.privacyHeading}
      description={settingsTexts.privacyDescription}
      onSubmit={submit}
      saving={update.isPending}
      saveLabel={settingsTexts.savePrivacy}
    >
      <Stack gap="lg">
        <Select
          label={settingsTexts.dataRetention}
          description={settingsTexts.dataRetentionDescription}
          data={retentionData}
          allowDeselect={false}
          maw={320}
          key={form.key('dataRetention')}
          {...form.getInputProps('dataRetention')}
        />
        <Switch
          label={settingsTexts.shareAnonymousData}
          description={settingsTexts.shareAnonymousDataDescription}
          size="md"
          key={form.key('shareAnonymousData')}
          {...form.getInputProps('shareAnonymousData', { type: 'checkbox' })}
        />
        <Switch
          label={settingsTexts.storeChatHistory}
          description={settingsTexts.storeChatHistoryDescription}
          size="md"
          key={form.key('storeChatHistory')}
          {...form.getInputProps('storeChatHistory', { type: 'checkbox' })}
        />
      </Stack>
    </SettingsSection>
  );
}

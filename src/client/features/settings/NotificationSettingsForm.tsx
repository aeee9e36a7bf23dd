import { Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import type { NotificationPreferences } from '../../../shared/schemas/profile';
import { settingsTexts } from '../../../shared/texts';
import { trpc } from '../../lib/trpc';
import { SettingsSection } from './SettingsSection';
import { useSettingsSaved } from './useSettingsSaved';

const switches = [
  { key: 'emailNotifications', label: settingsTexts.emailNotifications, description: settingsTexts.emailNotificationsDescription },
  { key: 'pushNotifications', label: settingsTexts.pushNotifications, description: settingsTexts.pushNotificationsDescription },
  { key: 'coachingSuggestions', label: settingsTexts.coachingSuggestions, description: settingsTexts.coachingSuggestionsDescription },
] as const satisfies ReadonlyArray<{ key: keyof Choices; label: string; description: string }>;

// The weekly digest is the weekly review: one switch, in the Nudges section below;
// this form leaves it out of its save, so the server keeps it as that section set it.
type Choices = Omit<NotificationPreferences, 'weeklyDigest'>;

export function NotificationSettingsForm(props: { notifications: NotificationPreferences }) {
  const { saved, failed } = useSettingsSaved();
  const update = useMutation(trpc.profile.updateNotifications.mutationOptions());
  const { weeklyDigest: _weeklyReview, ...initial } = props.notifications;
  const form = useForm<Choices>({ mode: 'uncontrolled', initialValues: initial });

  const submit = form.onSubmit(async (values) => {
    try {
      const settings = await update.mutateAsync(values);
      const { weeklyDigest: _saved, ...choices } = settings.notifications;
      form.resetDirty(choices);
      saved(settings, { title: settingsTexts.notificationsSavedTitle, message: settingsTexts.notificationsSavedBody });
    } catch (error) {
      failed(error);
    }
  });

  return (
    <SettingsSection
      heading={settingsTexts.notificationsHeading}
      description={settingsTexts.notificationsDescription}
      onSubmit={submit}
      saving={update.isPending}
      saveLabel={settingsTexts.saveNotifications}
    >
      <Stack gap="lg">
        {switches.map((item) => (
          <Switch
            key={form.key(item.key)}
            label={item.label}
            description={item.description}
            size="md"
            {...form.getInputProps(item.key, { type: 'checkbox' })}
          />
        ))}
      </Stack>
    </SettingsSection>
  );
}

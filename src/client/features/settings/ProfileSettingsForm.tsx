import { SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { profileSchema, type Profile } from '../../../shared/schemas/profile';
import { authTexts, settingsTexts } from '../../../shared/texts';
import { AccountRequired } from '../auth/AccountRequired';
import { useSession } from '../auth/useSession';
import { fieldErrorsOf } from '../../lib/errors';
import { trpc } from '../../lib/trpc';
import { SettingsSection } from './SettingsSection';
import { useSettingsSaved } from './useSettingsSaved';

type ProfileValues = { [K in keyof Profile]: string };

function toValues(profile: Profile): ProfileValues {
  return {
    fullName: profile.fullName,
    email: profile.email ?? '',
    jobTitle: profile.jobTitle ?? '',
    company: profile.company ?? '',
    phone: profile.phone ?? '',
  };
}

export function ProfileSettingsForm(props: { profile: Profile }) {
  const queryClient = useQueryClient();
  const { saved, failed } = useSettingsSaved();
  const update = useMutation(trpc.profile.updateProfile.mutationOptions());
  const { guest } = useSession();
  const form = useForm<ProfileValues>({
    mode: 'uncontrolled',
    initialValues: toValues(props.profile),
    validate: zod4Resolver(profileSchema, { errorPriority: 'first' }),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const settings = await update.mutateAsync(values);
      // The server trims and normalises (e.g. the phone number): show what was stored.
      form.setValues(toValues(settings.profile));
      form.resetDirty();
      saved(settings, { title: settingsTexts.profileSavedTitle, message: settingsTexts.profileSavedBody });
      // The sidebar and header show the name and job title.
      await queryClient.invalidateQueries(trpc.auth.session.queryFilter());
    } catch (error) {
      form.setErrors(fieldErrorsOf(error));
      failed(error);
    }
  });

  return (
    <SettingsSection
      heading={settingsTexts.profileHeading}
      description={settingsTexts.profileDescription}
      onSubmit={submit}
      saving={update.isPending}
      saveLabel={settingsTexts.saveProfile}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput label={settingsTexts.fullName} autoComplete="name" required key={form.key('fullName')} {...form.getInputProps('fullName')} />
        <TextInput
          label={settingsTexts.email}
          type="email"
          autoComplete="email"
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <TextInput
          label={settingsTexts.jobTitle}
          autoComplete="organization-title"
          key={form.key('jobTitle')}
          {...form.getInputProps('jobTitle')}
        />
        <TextInput
          label={settingsTexts.company}
          autoComplete="organization"
          key={form.key('company')}
          {...form.getInputProps('company')}
        />
        <TextInput
          label={settingsTexts.phone}
          description={guest ? authTexts.accountRequiredFor.phone : settingsTexts.phoneDescription}
          type="tel"
          autoComplete="tel"
          placeholder="+15551234567"
          disabled={guest}
          key={form.key('phone')}
          {...form.getInputProps('phone')}
        />
      </SimpleGrid>
      {guest && <AccountRequired what="phone" compact />}
    </SettingsSection>
  );
}

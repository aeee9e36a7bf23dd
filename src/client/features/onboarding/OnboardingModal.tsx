import { Button, Center, Group, Loader, Modal, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { IconArrowRight } from '@tabler/icons-react';
import { IconCheck } from '@tabler/icons-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { onboardingTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { useSession } from '../auth/useSession';
import { ConnectToolsStep } from './ConnectToolsStep';
import { StepIndicator } from './StepIndicator';
import {
  initialConnections,
  initialOnboardingForm,
  loadOnboardingData,
  saveOnboardingData,
  type ToolKey,
} from './onboardingData';
import { type StepSave, useOnboardingForm } from './useOnboardingForm';
import classes from './onboarding.module.css';

const steps = [
  { label: onboardingTexts.toolsStepShort, title: onboardingTexts.toolsStep },
  { label: onboardingTexts.roleStepShort, title: onboardingTexts.roleStep },
  { label: onboardingTexts.privacyStepShort, title: onboardingTexts.privacyStep },
] as const;
const stepLabels = steps.map((step) => step.label);
const roleStep = 1;

// A first visit to /app shows the first step only: the other steps' fields (NumberInput, Select and
// their dropdowns) and what saves them (the profile's and the knowledge base's mutations, the
// browser's copy of the knowledge base) load when the user heads for Next, or at the latest when
// the step opens.
const stepLoaders = [undefined, () => import('./RoleStep'), () => import('./PrivacyStep')] as const;
const RoleStep = lazy(() => stepLoaders[1]().then((module) => ({ default: module.RoleStep })));
const PrivacyStep = lazy(() => stepLoaders[2]().then((module) => ({ default: module.PrivacyStep })));
const preloadStep = (step: number) => void stepLoaders[step]?.();
const stepLoading = (
  <Center mih={120}>
    <Loader size="sm" />
  </Center>
);
const lastStep = steps.length - 1;

export function OnboardingModal(props: { opened: boolean; onClose: () => void }) {
  const { user } = useSession();
  const [saved] = useState(loadOnboardingData);
  const [active, setActive] = useState(0);
  const [connections, setConnections] = useState(() => initialConnections(saved));
  const [busy, setBusy] = useState(false);
  // The save of the step drawn, set by RoleStep and PrivacyStep once their code has loaded.
  const stepSave = useRef<StepSave | null>(null);
  const [initialValues] = useState(() => initialOnboardingForm(saved, { jobTitle: user?.jobTitle ?? null, company: user?.company ?? null }));
  const form = useOnboardingForm(initialValues);

  const remember = () => saveOnboardingData(form.getValues(), connections);

  function connect(tool: ToolKey) {
    if (connections[tool]) return;
    const next = { ...connections, [tool]: true };
    setConnections(next);
    saveOnboardingData(form.getValues(), next);
    notify.success(onboardingTexts.connectedToast(onboardingTexts.tools[tool]));
  }

  async function goNext() {
    if (active === roleStep) {
      if (form.validate().hasErrors) return;
      // Still loading, the step has drawn no field yet: nothing to save, and no step to leave.
      const save = stepSave.current;
      if (!save) return;
      setBusy(true);
      try {
        await save(form.getValues());
      } catch {
        notify.error(onboardingTexts.profileSaveFailedTitle, onboardingTexts.profileSaveFailedBody);
        return;
      } finally {
        setBusy(false);
      }
    }
    remember();
    setActive((step) => Math.min(step + 1, lastStep));
  }

  function goBack() {
    remember();
    setActive((step) => Math.max(step - 1, 0));
  }

  async function complete() {
    if (form.validate().hasErrors) return;
    const save = stepSave.current;
    if (!save) return;
    remember();
    // 'Save chat history' is the account's storeChatHistory, as in Settings' Privacy tab.
    setBusy(true);
    try {
      await save(form.getValues());
    } catch {
      notify.error(onboardingTexts.privacySaveFailedTitle, onboardingTexts.privacySaveFailedBody);
      return;
    } finally {
      setBusy(false);
    }
    notify.success(onboardingTexts.completeTitle, onboardingTexts.completeBody);
    props.onClose();
  }

  function close() {
    remember();
    props.onClose();
  }

  return (
    <Modal
      opened={props.opened}
      onClose={close}
      title={onboardingTexts.title}
      size="lg"
      centered
      closeOnClickOutside={false}
      // Drawn in place, not through a portal: Mantine's Portal mounts empty and draws its content
      // in a second, synchronous render from a layout effect, one long task on a phone however the
      // dialog was opened. In place, the first render draws it, as a transition (OnboardingDialog;
      // Total Blocking Time). It sits at the end of the app's shell, whose root makes no stacking context.
      withinPortal={false}
      closeButtonProps={{ 'aria-label': onboardingTexts.close }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <StepIndicator
        labels={stepLabels}
        active={active}
        onStepClick={(step) => {
          remember();
          setActive(step);
        }}
      />
      <div className={classes.stepContent}>
        <Title order={3} size="h4" mb="xs">
          {steps[active].title}
        </Title>
        {active === 0 && <ConnectToolsStep connections={connections} onConnect={connect} />}
        <Suspense fallback={stepLoading}>
          {active === 1 && <RoleStep form={form} saveRef={stepSave} />}
          {active === 2 && <PrivacyStep form={form} saveRef={stepSave} />}
        </Suspense>
      </div>
      <Group justify="space-between" mt="xl">
        <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={goBack} disabled={active === 0 || busy}>
          {onboardingTexts.back}
        </Button>
        {active < lastStep ? (
          <Button
            rightSection={<IconArrowRight size={16} />}
            onClick={goNext}
            onPointerEnter={() => preloadStep(active + 1)}
            onFocus={() => preloadStep(active + 1)}
            loading={busy}
          >
            {onboardingTexts.next}
          </Button>
        ) : (
          <Button leftSection={<IconCheck size={16} />} onClick={() => void complete()} loading={busy}>
            {onboardingTexts.completeSetup}
          </Button>
        )}
      </Group>
    </Modal>
  );
}

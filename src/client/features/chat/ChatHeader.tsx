import { ActionIcon, Button, Group, Text, Title } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { IconDownload } from '@tabler/icons-react';
import { IconPlus } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { chatViewTexts } from '../../../shared/texts';
import { LazyTooltip } from '../../components/LazyFloating';
import classes from './chat.module.css';

type HeaderAction = {
  label: string;
  ariaLabel: string;
  icon: ReactNode;
  onClick?: () => void;
  disabled?: boolean;
  loading?: boolean;
};

// Text buttons from the small breakpoint up; icon buttons (with the same names) on phones.
function HeaderButton(props: HeaderAction) {
  return (
    <>
      <Button
        visibleFrom="sm"
        variant="default"
        size="xs"
        leftSection={props.icon}
        onClick={props.onClick}
        disabled={props.disabled}
        loading={props.loading}
        title={props.ariaLabel}
      >
        {props.label}
      </Button>
      <LazyTooltip label={props.ariaLabel} openDelay={700}>
        <ActionIcon
          hiddenFrom="sm"
          variant="default"
          size="lg"
          aria-label={props.ariaLabel}
          onClick={props.onClick}
          disabled={props.disabled}
          loading={props.loading}
        >
          {props.icon}
        </ActionIcon>
      </LazyTooltip>
    </>
  );
}

/** 'AI Coach Chat' with the open chat's title, and New Chat, Copy and Save. */
export function ChatHeader(props: {
  chatTitle: string;
  onCopy: () => void;
  onSave: () => void;
  canExport: boolean;
  exporting: boolean;
}) {
  return (
    <Group className={classes.pageHeader} justify="space-between" wrap="nowrap" gap="sm">
      <div className={classes.headerTitles}>
        <Title order={1} size="h4" lh={1.2}>
          {chatViewTexts.pageTitle}
        </Title>
        <Text size="xs" c="dimmed" truncate="end" title={props.chatTitle}>
          {props.chatTitle}
        </Text>
      </div>
      <Group gap={6} wrap="nowrap">
        <Button
          visibleFrom="sm"
          size="xs"
          leftSection={<IconPlus size={14} />}
          renderRoot={(rootProps) => <Link {...rootProps} to="/app" search={{ new: true }} />}
        >
          {chatViewTexts.newChat}
        </Button>
        <LazyTooltip label={chatViewTexts.newChatLabel} openDelay={700}>
          <ActionIcon
            hiddenFrom="sm"
            size="lg"
            aria-label={chatViewTexts.newChatLabel}
            renderRoot={(rootProps) => <Link {...rootProps} to="/app" search={{ new: true }} />}
          >
            <IconPlus size={18} />
          </ActionIcon>
        </LazyTooltip>
        <HeaderButton
          label={chatViewTexts.copyConversation}
          ariaLabel={chatViewTexts.copyConversationLabel}
          icon={<IconCopy size={16} />}
          onClick={props.onCopy}
          disabled={!props.canExport}
          loading={props.exporting}
        />
        <HeaderButton
          label={chatViewTexts.saveConversation}
          ariaLabel={chatViewTexts.saveConversationLabel}
          icon={<IconDownload size={16} />}
          onClick={props.onSave}
          disabled={!props.canExport}
          loading={props.exporting}
        />
      </Group>
    </Group>
  );
}

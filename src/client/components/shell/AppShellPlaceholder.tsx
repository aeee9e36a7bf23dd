import { Anchor, Burger, Center, Group, Loader, Skeleton, Text } from '@mantine/core';
import { chatTexts, commonTexts } from '../../../shared/texts';
import classes from '../../features/chat/chat.module.css';
import { ChatComposer } from '../../features/chat/ChatComposer';
import { ChatHeader } from '../../features/chat/ChatHeader';
import { DraftThread } from '../../features/chat/DraftThread';
import { CoachingTools } from '../../features/chat/CoachingTools';
import { siteLinks } from './AppHeader';
import { AppFrame } from './AppFrame';
import { SidebarSkeleton } from './SidebarSkeleton';

const noop = () => {};
const refuse = () => false;

/**
 * /app as it looks before the app has run (LCP and FCP on a phone): the header, the
 * sidebar's outline, and the chat page: a new conversation's greeting and coaching tools, or,
 * for ?chat={id}, a conversation loading. Prerendered at build time (src/client/prerender.tsx,
 * scripts/prerender.mjs) and drawn before any script runs; the app, once it has the session and
 * the chat's data, replaces it (src/client/main.tsx). The same components as the real page where
 * they need no data, so nothing moves when it is replaced. `inert`, so nothing in it can be
 * clicked or focused, but the chat's input: a person who sees it types, and the app's input takes
 * what was typed, the caret and the focus when it replaces it (lib/earlyInput.ts).
 */
export function AppShellPlaceholder(props: { openChat: boolean }) {
  return (
    <div data-app-placeholder="" aria-busy="true">
      <AppFrame
        placeholder
        fill
        navbar={{ content: <SidebarSkeleton />, opened: false }}
        header={
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={false} hiddenFrom="sm" size="sm" aria-hidden />
              <Text fw={800} size="lg" variant="gradient" gradient={{ from: 'indigo', to: 'cyan', deg: 45 }}>
                {commonTexts.brand}
              </Text>
            </Group>
            <Group gap="lg" wrap="nowrap">
              <Group gap="md" visibleFrom="xs">
                {siteLinks.map((link) => (
                  <Anchor key={link.to} href={link.to} size="sm" c="dimmed">
                    {link.label}
                  </Anchor>
                ))}
              </Group>
              <Skeleton circle height={38} />
            </Group>
          </Group>
        }
      >
        <div className={classes.page}>
          <div inert style={{ display: 'contents' }}>
            <ChatHeader chatTitle={props.openChat ? '' : chatTexts.newChat} onCopy={noop} onSave={noop} canExport={false} exporting={false} />
            {props.openChat ? (
              <Center style={{ flex: 1 }} p="md">
                <Loader aria-label={chatTexts.loadingConversation} />
              </Center>
            ) : (
              <DraftThread>
                <CoachingTools onStart={noop} />
              </DraftThread>
            )}
          </div>
          <ChatComposer onSend={refuse} blocked={false} streaming={false} onStop={noop} stopping={false} offline={false} onQuickStart={noop} placeholder />
        </div>
      </AppFrame>
    </div>
  );
}

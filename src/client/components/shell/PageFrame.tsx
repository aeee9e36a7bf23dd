import { Box, Container, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The scrolling frame and heading of every app page: a title, an optional subtitle, an optional
 * link above the title (`before`) and an optional action beside it (`action`, such as a page's
 * main button). Dialogs a page owns go in `after`, outside the scrolling container.
 */
export function PageFrame(props: {
  title: string;
  subtitle?: string;
  size?: 'md' | 'lg';
  before?: ReactNode;
  action?: ReactNode;
  after?: ReactNode;
  children: ReactNode;
}) {
  const heading = (
    <div style={props.action ? { flex: '1 1 260px' } : undefined}>
      {props.before}
      <Title order={1} size="h2">
        {props.title}
      </Title>
      {props.subtitle && (
        <Text c="dimmed" size="sm" mt={4}>
          {props.subtitle}
        </Text>
      )}
    </div>
  );
  return (
    <Box style={{ flex: 1, overflowY: 'auto' }} data-scroll-root>
      <Container size={props.size ?? 'md'} py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
        <Stack gap="lg">
          {props.action ? (
            <Group justify="space-between" align="flex-end" gap="sm">
              {heading}
              {props.action}
            </Group>
          ) : (
            heading
          )}
          {props.children}
        </Stack>
      </Container>
      {props.after}
    </Box>
  );
}

import { Box, Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The scrolling frame and heading shared by the Microsoft pages. */
export function PageFrame(props: { title: string; subtitle?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Box style={{ flex: 1, overflowY: 'auto' }}>
      <Container size="md" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
        <Stack gap="lg">
          <div>
            {props.actions}
            <Title order={1} size="h2">
              {props.title}
            </Title>
            {props.subtitle && (
              <Text c="dimmed" size="sm" mt={4}>
                {props.subtitle}
              </Text>
            )}
          </div>
          {props.children}
        </Stack>
      </Container>
    </Box>
  );
}

import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { commonTexts } from '../../shared/texts';

export function NotFoundPage() {
  return (
    <Center component="main" mih="100vh" p="md">
      <Stack align="center" gap="sm" maw={480} ta="center">
        <Title order={1}>{commonTexts.notFoundTitle}</Title>
        <Text c="dimmed">{commonTexts.notFoundBody}</Text>
        <Button component={Link} to="/" variant="light" mt="md">
          Back to home
        </Button>
      </Stack>
    </Center>
  );
}

import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link, useMatches } from '@tanstack/react-router';
import { commonTexts } from '../../shared/texts';
import { mainContentId } from '../../shared/texts/pageTitles';

export function NotFoundPage() {
  // On its own the page is the document's main landmark; shown inside the app's shell (an unknown
  // path under an app screen), the shell's main already holds it.
  const insideShell = useMatches({ select: (matches) => matches.some((match) => match.routeId === '/_app') });
  return (
    <Center component={insideShell ? 'div' : 'main'} id={insideShell ? undefined : mainContentId} mih={insideShell ? '60vh' : '100vh'} p="md">
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

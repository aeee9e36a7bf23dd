import { Button, Group, Modal, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { microsoftTexts } from '../../../shared/texts';

// The product spec's screens: connecting a non-Microsoft integration says it is coming soon.
export function ComingSoonDialog(props: { name: string | null; onClose: () => void }) {
  return (
    <Modal opened={props.name !== null} onClose={props.onClose} title={microsoftTexts.comingSoonTitle(props.name ?? '')} centered withCloseButton={false}>
      <Text size="sm">{microsoftTexts.comingSoonBody(props.name ?? '')}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={props.onClose}>
          {microsoftTexts.close}
        </Button>
        <Button component={Link} to="/microsoft-manual-auth" onClick={props.onClose}>
          {microsoftTexts.connectMicrosoftInstead}
        </Button>
      </Group>
    </Modal>
  );
}

import { Anchor, Group, Text, ThemeIcon } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { commonTexts } from '../../../shared/texts';

// The brand as a link home, shared by the landing page and the legal pages.
export function BrandLogo() {
  return (
    <Anchor component={Link} to="/" underline="never" c="inherit">
      <Group gap={10} wrap="nowrap">
        <ThemeIcon
          size={34}
          radius="md"
          variant="gradient"
          gradient={{ from: 'indigo', to: 'violet', deg: 135 }}
          aria-hidden
        >
          <IconSparkles size={20} stroke={1.8} />
        </ThemeIcon>
        <Text component="span" fw={800} fz="lg" lh={1}>
          {commonTexts.brand}
        </Text>
      </Group>
    </Anchor>
  );
}

import { Stack, Text, Title } from '@mantine/core';

// The centred title and subtitle that open a landing section; `id` labels the section.
export function SectionHeading(props: { id: string; title: string; subtitle: string }) {
  return (
    <Stack align="center" ta="center" gap="sm" maw={680} mx="auto" mb={{ base: 32, md: 56 }}>
      <Title id={props.id} order={2} fz={{ base: 28, md: 38 }} lh={1.2} style={{ textWrap: 'balance' }}>
        {props.title}
      </Title>
      <Text size="lg" c="dimmed">
        {props.subtitle}
      </Text>
    </Stack>
  );
}

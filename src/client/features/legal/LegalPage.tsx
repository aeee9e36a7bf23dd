import { Anchor, Box, Container, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { legalTexts, type LegalDocument } from '../../../shared/texts';
import { BrandLogo } from '../landing/BrandLogo';
import classes from './legal.module.css';
import { mainContentId } from '../../../shared/texts/pageTitles';

type Props = {
  document: LegalDocument;
  // Page-specific calls to action shown after the last section (e.g. Go to App on /terms).
  actions?: ReactNode;
};

const sectionId = (index: number) => `section-${index + 1}`;

// Shared layout of /terms and /privacy: brand header, dated document with numbered sections
// and a table of contents, and links between the two documents and home.
export function LegalPage({ document, actions }: Props) {
  return (
    <Box className={classes.page} mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="header" className={classes.header}>
        <Container size="md" h={64}>
          <Group h="100%" justify="space-between" wrap="nowrap">
            <BrandLogo />
            <Anchor component={Link} to="/" size="sm">
              <Group gap={4} wrap="nowrap">
                <IconArrowLeft size={16} aria-hidden />
                {legalTexts.backToHome}
              </Group>
            </Anchor>
          </Group>
        </Container>
      </Box>

      <Container component="main" id={mainContentId} size="md" py={{ base: 32, md: 64 }} w="100%" style={{ flex: 1 }}>
        <Title order={1} fz={{ base: 32, md: 42 }}>
          {document.title}
        </Title>
        <Text c="dimmed" mt="xs">
          {legalTexts.lastUpdatedLabel} <time dateTime={legalTexts.lastUpdatedIso}>{legalTexts.lastUpdated}</time>
        </Text>
        <Text size="lg" mt="lg">
          {document.intro}
        </Text>

        <Paper component="nav" aria-labelledby="legal-contents" withBorder radius="md" p="lg" mt="xl">
          <Text id="legal-contents" fw={700} mb="sm">
            {legalTexts.contentsLabel}
          </Text>
          <List type="ordered" spacing={4} size="sm">
            {document.sections.map((section, index) => (
              <List.Item key={section.title}>
                <Anchor href={`#${sectionId(index)}`} size="sm">
                  {section.title}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Paper>

        <Stack gap={40} mt={48}>
          {document.sections.map((section, index) => (
            <Box
              key={section.title}
              component="section"
              id={sectionId(index)}
              aria-labelledby={`${sectionId(index)}-title`}
              className={classes.section}
            >
              <Title id={`${sectionId(index)}-title`} order={2} fz="h3" mb="sm">
                {`${index + 1}. ${section.title}`}
              </Title>
              <Stack gap="sm">
                {section.paragraphs.map((paragraph) => (
                  <Text key={paragraph} lh={1.7}>
                    {paragraph}
                  </Text>
                ))}
                {section.items && (
                  <List spacing={6} lh={1.6} withPadding>
                    {section.items.map((item) => (
                      <List.Item key={item}>{item}</List.Item>
                    ))}
                  </List>
                )}
                {section.related && (
                  <Anchor component={Link} to={section.related.to} fw={500}>
                    {section.related.label}
                  </Anchor>
                )}
              </Stack>
            </Box>
          ))}
        </Stack>

        {actions && (
          <Group mt={56} gap="sm">
            {actions}
          </Group>
        )}
      </Container>

      <Box component="footer" className={classes.footer}>
        <Container size="md" py="lg">
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {legalTexts.footerQuestion}{' '}
              {/* Inside a sentence a link is underlined: colour alone does not tell it apart. */}
              <Anchor href={`mailto:${legalTexts.contactEmail}`} inherit underline="always">
                {legalTexts.contactEmail}
              </Anchor>
            </Text>
            <Group component="nav" aria-label={legalTexts.navigationLabel} gap="md">
              <Anchor component={Link} to="/" size="sm" c="dimmed">
                {legalTexts.homeLink}
              </Anchor>
              <Anchor component={Link} to="/terms" size="sm" c="dimmed">
                {legalTexts.termsLink}
              </Anchor>
              <Anchor component={Link} to="/privacy" size="sm" c="dimmed">
                {legalTexts.privacyLink}
              </Anchor>
            </Group>
          </Group>
        </Container>
      </Box>
    </Box>
  );
}

import { AccountRequired } from '../auth/AccountRequired';
import { useSession } from '../auth/useSession';
import { Badge, Box, Button, Card, Group, SimpleGrid, Stack, Tabs, Text, ThemeIcon } from '@mantine/core';
import { useState } from 'react';
import { microsoftTexts } from '../../../shared/texts';
import { ComingSoonDialog } from './ComingSoonDialog';
import { integrationsCatalogue, type CatalogueItem, type CatalogueTab } from './catalogue';
import { MicrosoftServiceActions } from './MicrosoftServiceActions';
import { PageFrame } from '../../components/shell/PageFrame';
import { useConnectDialogs } from './useConnectDialogs';

const tabs: CatalogueTab[] = ['microsoft', 'google', 'communication', 'productivity'];

// /integrations 'Manage Integrations' (the product spec's screens).
export function IntegrationsPage() {
  const [comingSoon, setComingSoon] = useState<string | null>(null);
  const { open, dialogs } = useConnectDialogs();
  const { guest } = useSession();
  return (
    <PageFrame title={microsoftTexts.integrationsTitle} subtitle={microsoftTexts.integrationsSubtitle}>
      {guest && (
        <Box mb="md">
          <AccountRequired what="microsoft" />
        </Box>
      )}
      <Tabs defaultValue="microsoft">
        <Tabs.List mb="md">
          {tabs.map((tab) => (
            <Tabs.Tab key={tab} value={tab}>
              {microsoftTexts.tabs[tab]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Panel key={tab} value={tab}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              {integrationsCatalogue[tab].map((item) => (
                <IntegrationCard key={item.id} item={item} onComingSoon={() => setComingSoon(item.name)} onConnect={open} />
              ))}
            </SimpleGrid>
          </Tabs.Panel>
        ))}
      </Tabs>
      <ComingSoonDialog name={comingSoon} onClose={() => setComingSoon(null)} />
      {dialogs}
    </PageFrame>
  );
}

function IntegrationCard(props: { item: CatalogueItem; onComingSoon: () => void; onConnect: ReturnType<typeof useConnectDialogs>['open'] }) {
  const { item } = props;
  return (
    <Card withBorder radius="md" padding="md" role="group" aria-label={item.name}>
      <Stack gap="sm" h="100%" justify="space-between">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color="indigo" size="xl" radius="md">
            {item.icon}
          </ThemeIcon>
          <div style={{ minWidth: 0 }}>
            <Text fw={600}>{item.name}</Text>
            <Text size="sm" c="dimmed">
              {item.description}
            </Text>
          </div>
        </Group>
        {item.microsoftService ? (
          <MicrosoftServiceActions service={item.microsoftService} onConnect={props.onConnect} />
        ) : (
          <Group gap="xs" justify="flex-end">
            <Badge color="gray" variant="light">
              {microsoftTexts.notConnectedBadge}
            </Badge>
            <Button size="xs" variant="light" onClick={props.onComingSoon} aria-label={`${microsoftTexts.connect} ${item.name}`}>
              {microsoftTexts.connect}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

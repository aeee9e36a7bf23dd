import { IconBrandAsana } from '@tabler/icons-react';
import { IconBrandGmail } from '@tabler/icons-react';
import { IconBrandGoogleDrive } from '@tabler/icons-react';
import { IconBrandJira } from '@tabler/icons-react';
import { IconBrandNotion } from '@tabler/icons-react';
import { IconBrandSlack } from '@tabler/icons-react';
import { IconBrandTeams } from '@tabler/icons-react';
import { IconBrandZoom } from '@tabler/icons-react';
import { IconCalendar } from '@tabler/icons-react';
import { IconCalendarEvent } from '@tabler/icons-react';
import { IconChecklist } from '@tabler/icons-react';
import { IconCloud } from '@tabler/icons-react';
import { IconMail } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MicrosoftServiceKey } from '../../../shared/schemas/microsoft';

// The integrations catalogue of the product spec's entities. Only Microsoft email, calendar and Teams connect
// today; the rest open the coming-soon dialog.
export type CatalogueTab = 'microsoft' | 'google' | 'communication' | 'productivity';
export type CatalogueItem = { id: string; name: string; description: string; icon: ReactNode; microsoftService?: MicrosoftServiceKey };

const icon = (node: ReactNode) => node;
export const integrationsCatalogue: Record<CatalogueTab, CatalogueItem[]> = {
  microsoft: [
    { id: 'email', name: 'Microsoft Email', description: 'Read and organise your Outlook email', icon: icon(<IconMail size={22} aria-hidden />), microsoftService: 'email' },
    { id: 'calendar', name: 'Microsoft Calendar', description: 'Understand your meetings and schedule', icon: icon(<IconCalendarEvent size={22} aria-hidden />), microsoftService: 'calendar' },
    { id: 'teams', name: 'Microsoft Teams', description: 'Bring team chat context to your coaching', icon: icon(<IconBrandTeams size={22} aria-hidden />), microsoftService: 'teams' },
    { id: 'onedrive', name: 'OneDrive', description: 'Documents and files from OneDrive', icon: icon(<IconCloud size={22} aria-hidden />) },
    { id: 'planner', name: 'Microsoft Planner', description: 'Plans and tasks from Planner', icon: icon(<IconChecklist size={22} aria-hidden />) },
  ],
  google: [
    { id: 'gmail', name: 'Gmail', description: 'Google email', icon: icon(<IconBrandGmail size={22} aria-hidden />) },
    { id: 'google-calendar', name: 'Google Calendar', description: 'Google calendar events', icon: icon(<IconCalendar size={22} aria-hidden />) },
    { id: 'drive', name: 'Google Drive', description: 'Documents and files from Google Drive', icon: icon(<IconBrandGoogleDrive size={22} aria-hidden />) },
  ],
  communication: [
    { id: 'slack', name: 'Slack', description: 'Team conversations from Slack', icon: icon(<IconBrandSlack size={22} aria-hidden />) },
    { id: 'zoom', name: 'Zoom', description: 'Meetings from Zoom', icon: icon(<IconBrandZoom size={22} aria-hidden />) },
  ],
  productivity: [
    { id: 'notion', name: 'Notion', description: 'Notes and wikis from Notion', icon: icon(<IconBrandNotion size={22} aria-hidden />) },
    { id: 'asana', name: 'Asana', description: 'Projects and tasks from Asana', icon: icon(<IconBrandAsana size={22} aria-hidden />) },
    { id: 'jira', name: 'Jira', description: 'Issues and sprints from Jira', icon: icon(<IconBrandJira size={22} aria-hidden />) },
  ],
};

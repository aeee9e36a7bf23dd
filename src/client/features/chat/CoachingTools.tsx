import { Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartArrowsVertical } from '@tabler/icons-react';
import { IconListCheck } from '@tabler/icons-react';
import { IconMail } from '@tabler/icons-react';
import { IconMessageHeart } from '@tabler/icons-react';
import { IconRoute } from '@tabler/icons-react';
import { IconTarget } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { chatViewTexts } from '../../../shared/texts';
import type { QuickStart } from '../../../shared/texts/chat';
import classes from './chat.module.css';

export const coachingToolsId = 'coaching-tools';

const icons: Record<QuickStart['id'], ReactNode> = {
  grow: <IconRoute size={18} />,
  smart: <IconTarget size={18} />,
  okr: <IconChartArrowsVertical size={18} />,
  agenda: <IconListCheck size={18} />,
  feedback: <IconMessageHeart size={18} />,
  email: <IconMail size={18} />,
};

// Quick starts for a new conversation; the sidebar's GROW, OKRs and SMART links lead here.
export function CoachingTools(props: { onStart: (message: string) => void }) {
  return (
    <section id={coachingToolsId} className={classes.tools} aria-labelledby="coaching-tools-title">
      <Title order={2} id="coaching-tools-title" size="h5" mb={2}>
        {chatViewTexts.coachingToolsTitle}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {chatViewTexts.coachingToolsIntro}
      </Text>
      <div className={classes.toolGrid}>
        {chatViewTexts.quickStarts.map((tool) => (
          <button
            key={tool.id}
            type="button"
            className={classes.toolCard}
            // Named by its visible title (no separate label, so what is read is what is seen), and
            // described by the line below it, which is left out of the name.
            aria-describedby={`coaching-tool-${tool.id}`}
            onClick={() => props.onStart(tool.message)}
          >
            <ThemeIcon variant="light" radius="md" size="lg" aria-hidden>
              {icons[tool.id]}
            </ThemeIcon>
            <span>
              <Text component="span" display="block" fw={600} size="sm">
                {tool.label}
              </Text>
              <Text component="span" size="xs" c="dimmed" id={`coaching-tool-${tool.id}`} className={classes.toolDescription} aria-hidden>
                {tool.description}
              </Text>
            </span>
          </button>
        ))}
      </div>
    </section>
  );
}

import { Badge } from '@mantine/core';
import type { MemberState } from '../../../shared/schemas/organisations';
import { organisationTexts } from '../../../shared/texts';

const texts = organisationTexts.console;

// A member's state on the console: outline badges in dark shades (axe's contrast on the table).
const colours: Record<MemberState, string> = { invited: 'blue.9', active: 'teal.9', inactive: 'grape.9', deprovisioned: 'gray.7' };

export function MemberStateBadge({ state }: { state: MemberState }) {
  return (
    <Badge color={colours[state]} variant="outline" title={texts.stateHints[state]}>
      {texts.states[state]}
    </Badge>
  );
}

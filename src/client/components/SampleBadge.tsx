import { Badge, type BadgeProps } from '@mantine/core';
import { commonTexts } from '../../shared/texts';

/** The demo's mark on a sample row (a goal, a meeting, a rehearsal, a memory, a nudge): what it is, named on hover. */
export function SampleBadge({ size }: { size?: BadgeProps['size'] }) {
  return (
    <Badge size={size} variant="outline" color="grape" title={commonTexts.sampleBadgeLabel}>
      {commonTexts.sampleBadge}
    </Badge>
  );
}

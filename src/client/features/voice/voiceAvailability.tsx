import { useQuery } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { voiceShellTexts } from '../../../shared/texts';
import { LazyTooltip } from '../../components/LazyFloating';
import { trpc } from '../../lib/trpc';

/** Whether voice calls can be made: the server has speech (the offline coach has none). Until it is known: yes. */
export function useVoiceAvailable(): boolean {
  return useQuery(trpc.chats.coachInfo.queryOptions()).data?.voice ?? true;
}

/**
 * A voice control that cannot be used, greyed out (its child is disabled): a disabled button
 * takes neither the pointer nor the focus, so the wrapper around it does, and its tooltip says why
 * on hover and on focus; a screen reader reads the reason as the wrapper's name. `block`: the
 * control fills the width, as in a card's stack.
 */
export function VoiceUnavailable(props: { children: ReactElement; block?: boolean }) {
  return (
    <LazyTooltip label={voiceShellTexts.unavailable} openOnFocus multiline w={260} openDelay={700}>
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset is a form's group; this one only names why its control is disabled. */}
      <span
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the focus reaches the reason a disabled control cannot take.
        tabIndex={0}
        role="group"
        aria-label={voiceShellTexts.unavailable} style={{ display: props.block ? 'grid' : 'inline-flex', cursor: 'not-allowed' }}>
        {props.children}
      </span>
    </LazyTooltip>
  );
}

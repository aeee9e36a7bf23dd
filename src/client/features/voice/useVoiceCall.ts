import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { trpc } from '../../lib/trpc';
import { browserCallDevices } from './browserCallDevices';
import { defaultPauseMs, defaultSilenceMs } from './voiceActivity';
import { VoiceCallSession } from './voiceCallSession';

// The browser voice call as a hook: the call itself (its states, the speculative turn, playback,
// pause and resume) is a VoiceCallSession (voiceCallSession.ts, no React); this hook makes one per
// dialog on the browser's devices and renders its state through useSyncExternalStore.

export { autoStartMs, type CallStatus, formatDuration, summaryAfterSeconds, type TurnPhase } from './voiceCallSession';

/**
 * A browser voice call. `openChatId` is the chat the call was opened from: its earlier messages
 * are the coach's context and the call's turns are saved into it. Without one, the first turn
 * starts a chat of its own. `silenceMs` ends a turn; `pauseMs` starts a speculative reply (0, or
 * not below silenceMs, turns speculation off).
 */
export function useVoiceCall(openChatId: number | null = null, options: { silenceMs?: number; pauseMs?: number } = {}) {
  const queryClient = useQueryClient();
  const [session] = useState(() => new VoiceCallSession(browserCallDevices(() => void queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() }))));
  const state = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const silenceMs = options.silenceMs ?? defaultSilenceMs;
  const pauseMs = options.pauseMs ?? defaultPauseMs;

  const start = useCallback(() => session.start({ chatId: openChatId, silenceMs, pauseMs }), [session, openChatId, silenceMs, pauseMs]);
  const { hangUp, toggleMute, toggleSpeaker } = session;

  // Leaving the dialog lets the microphone, the audio and the requests go.
  useEffect(() => session.close, [session]);

  return { ...state, start, hangUp, toggleMute, toggleSpeaker };
}

import type { Rehearsal } from '../../db/entities/Rehearsal.js';

// A rehearsal's set-up: what a new rehearsal, a retry and the demo's copy of the example share.

export type SetUp = Pick<Rehearsal, 'counterpartName' | 'situation' | 'goal' | 'difficulty'> & {
  counterpartRole: string | null;
  counterpartRelationship: string | null;
  counterpartEmail: string | null;
  meetingId: string | null;
  retryOf: number | null;
};

/** A rehearsal's set-up (who, the situation, the goal, the difficulty, the meeting), for another rehearsal made from it. */
export function setUpOf(rehearsal: Rehearsal, retryOf: number | null): SetUp {
  return {
    counterpartName: rehearsal.counterpartName,
    counterpartRole: rehearsal.counterpartRole ?? null,
    counterpartRelationship: rehearsal.counterpartRelationship ?? null,
    counterpartEmail: rehearsal.counterpartEmail ?? null,
    situation: rehearsal.situation,
    goal: rehearsal.goal,
    difficulty: rehearsal.difficulty,
    meetingId: rehearsal.meetingId ?? null,
    retryOf,
  };
}

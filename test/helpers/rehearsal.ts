// A rehearsal's set-up as the tests post it (POST /api/rehearsals): a tough talk with a skip-level
// manager, whose goal carries a marker the other person's context must never hold.
export const rehearsalSetUp = {
  counterpart: { name: 'Sam Rivera', role: 'Head of Sales', relationship: 'my skip-level manager' },
  situation: 'The product launch date slips by two weeks because the vendor delivered late.',
  goal: 'GOAL-MARKER get Sam to accept the new launch date',
  difficulty: 'tough',
};

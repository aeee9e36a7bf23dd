// The demo user's four sample chats (the product spec's screens: ?chat=1..4 opens them), oldest first.
const samples: Array<[string, number, string, string]> = [
  ['Quarterly OKR planning', 4, 'Help me draft OKRs for my team next quarter.',
    "Let's build them together. What is the one outcome that would make next quarter a clear success for your team?"],
  ['Preparing a difficult conversation', 3, 'I need to give tough feedback to a senior engineer.',
    "Good that you're preparing. What specific behaviour have you observed, and what impact has it had on the team?"],
  ['Weekly team meeting agenda', 2, 'Can you draft an agenda for our weekly team sync?',
    "Here is a draft agenda for a 45-minute weekly sync:\n\n1. Wins from last week (5 min)\n2. Metrics review (10 min)\n3. Blockers and asks (15 min)\n4. Priorities for this week (10 min)\n5. Action items and owners (5 min)"],
  ['Career growth with GROW', 1, 'I want to grow into a director role.',
    "Let's use the GROW model. Goal first: what would being a director look like for you in 12 months?"],
];

export const demoSampleChats = samples
  .map(([title, daysAgo, question, answer]) => ({ title, daysAgo, question, answer }))
  .sort((a, b) => b.daysAgo - a.daysAgo);

// Debriefs of real meetings: the server's answers, the offline coach's words, the page's labels.

const pct = (share: number) => `${Math.round(share * 100)}%`;
/** A quote that ends a sentence: its own question mark or full stop ends it. */
const ending = (quote: string) => (/[.!?…]$/.test(quote) ? `“${quote}”` : `“${quote}”.`);
const duration = (seconds: number) => {
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60 ? `${s % 60} s` : ''}`.trim() : `${s} s`;
};

export const debriefTexts = {
  // Server answers
  notFound: 'No debrief of that meeting yet',
  meetingNotFound: 'That meeting was not found in your calendar',
  stillAhead: 'This meeting has not ended yet: a debrief is made from its transcript once it is over',
  notTeams: 'This is not a Microsoft Teams meeting, so there is no transcript to debrief',
  noOnlineMeeting: 'Teams has no meeting for this invite that your account can read (it may belong to another organisation)',
  noTranscript: 'This meeting has no transcript: transcription was off, or Teams has not finished it yet (it can take a few minutes after the meeting ends)',
  transcriptUnreadable: 'The transcript Teams gave could not be read',
  notInTranscript: (name: string) => `The transcript does not name you: no one in it speaks as “${name}”`,
  needsPermission:
    'Reading Teams transcripts needs your permission: reconnect Microsoft Calendar in Settings and allow "Read your online meetings" and "Read all transcripts of your online meetings" (OnlineMeetings.Read, OnlineMeetingTranscript.Read.All). If your organisation requires it, an administrator must allow them first.',
  debriefsOff: 'Meeting debriefs are not turned on for this app yet: ask your administrator to turn them on',
  fetchError: 'Could not read the meeting transcript',
  nothingToRehearse: 'This debrief has no moment to rehearse',
  chatTitle: (subject: string) => `Debrief: ${subject || 'Meeting'}`,

  // The debrief as the coach's message in the meeting's chat
  messageHeading: (subject: string) => `**Debrief: ${subject || 'your meeting'}**`,
  messageNumbers: (you: { talkShare: number; turns: number; questionsAsked: number; interruptions: number; wordsPerMinute: number }) =>
    `You spoke ${pct(you.talkShare)} of the time in ${you.turns} turns, asked ${you.questionsAsked} question${you.questionsAsked === 1 ? '' : 's'}, came in over someone ${you.interruptions} time${you.interruptions === 1 ? '' : 's'}, at ${you.wordsPerMinute} words a minute.`,
  strengthsHeading: 'What worked',
  momentsHeading: 'What to try differently',
  messageClose: 'Which of these moments would you most like to handle differently next time, and what would you say instead?',
  privateNote: 'This debrief is yours alone: nothing was posted into the meeting or sent to anyone in it.',

  // The offline coach: observation (what you said, when), its effect, and what to try.
  strength: {
    question: (at: string, quote: string, next: string | null) =>
      `At ${at} you asked “${quote}”${next ? ` and ${next} took the floor` : ''}. An open question like that hands the conversation over and tells you what the others need before you propose anything.`,
    acknowledged: (at: string, quote: string, who: string) =>
      `At ${at}, when ${who} pushed back, you answered ${ending(quote)} Naming their point before giving yours keeps them in the conversation instead of defending it.`,
    commitment: (at: string, quote: string) =>
      `At ${at} you asked for a commitment: ${ending(quote)} A named owner and a date is what turns a discussion into an outcome people can check.`,
    concise: (at: string, quote: string, seconds: number) =>
      `At ${at} you made your point in ${duration(seconds)}: ${ending(quote)} Short turns leave room for the others to answer it.`,
  },
  moment: {
    interruption: (at: string, quote: string, who: string) =>
      `At ${at} you started “${quote}” while ${who} was still speaking. Whatever the intent, cutting in tells the speaker their point can wait.`,
    interruptionInstead: (who: string) => `Let ${who} finish, then answer their point first: “Before I respond: you said … — did I get that right?”`,
    longTurn: (at: string, quote: string, seconds: number) =>
      `At ${at} you held the floor for ${duration(seconds)} in one turn, starting ${ending(quote)} After a minute or so most listeners stop taking in detail and wait for their turn.`,
    longTurnInstead: 'Make your first point, then check in before the next one: “Does that match what you are seeing?”',
    fillers: (at: string, quote: string, words: string[]) =>
      `At ${at} you said “${quote}”: ${words.map((w) => `“${w}”`).join(', ')} softened the point before it landed.`,
    fillersInstead: (better: string) => `Say it plainly: “${better}”`,
    talkShare: (at: string, quote: string, share: number, fair: number) =>
      `You spoke ${pct(share)} of the time, where an even share would be about ${pct(fair)}; your longest stretch began at ${at}: ${ending(quote)}`,
    talkShareInstead: 'Before your next long point, ask the quietest person what they think, and let the silence work.',
  },
  rehearsalSituation: (subject: string, at: string, note: string) => `In “${subject}”, at ${at}: ${note}`,
  rehearsalGoal: (instead: string) => instead.slice(0, 500),

  behaviourLabels: {
    agreement: 'Asked for the agreement (who does what, by when)',
    pushback: 'Acknowledged the pushback before answering',
    talkLess: 'Talked less',
    letThemFinish: 'Let the other person finish',
    shorterTurns: 'Kept turns short',
    fewerFillers: 'Fewer filler words',
  },

  // Page
  debriefButton: 'Debrief',
  openDebrief: 'Open debrief',
  recentHeading: 'Recent Teams meetings',
  automaticLabel: 'Debrief my Teams meetings automatically',
  automaticDescription: 'When a meeting you attended ends and Teams has its transcript, your coach makes its debrief and posts it in your chat. Only you see it.',
  recentEmpty: 'No Teams meetings ended in the last week.',
  sampleBadge: 'Sample',
  sampleNote: 'A sample debrief from a made-up transcript, so you can see what a debrief of your own Teams meeting would look like.',
  talkShareLabel: 'Your share of the talk',
  turnsLabel: 'Turns',
  longestTurnLabel: 'Longest turn',
  questionsLabel: 'Questions asked',
  fillersLabel: 'Filler words',
  paceLabel: 'Words per minute',
  interruptionsLabel: 'Interruptions',
  speakersHeading: 'Who spoke',
  agendaHeading: 'Agenda',
  discussed: 'Discussed',
  notDiscussed: 'Not discussed',
  strengthsHeadingPage: 'What worked',
  momentsHeadingPage: 'What to try differently',
  rehearsedHeading: (name: string) => `What you rehearsed with ${name}`,
  rehearsedShare: (share: number) => `${pct(share)} of what you rehearsed showed up in the meeting`,
  rehearseThis: 'Rehearse this',
  openChat: 'Talk it through',
  trendsTitle: 'Meeting trends',
  trendsDescription: 'Your talk share, questions and interruptions across your debriefed meetings.',
  trendsEmpty: 'No debriefed meetings yet. Debrief a Teams meeting from the Meetings page.',
  trendsLink: 'Trends',
  rehearsedTrendHeading: 'Rehearsed behaviours seen in real meetings',
  byPerson: 'By person',
  bySeries: 'By meeting',
  youSeconds: (seconds: number) => duration(seconds),
  percent: pct,
};

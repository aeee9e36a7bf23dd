// The rehearsal's texts that the app shell and a stored chat draw (the sidebar's link, a chat's
// badge, OpenChat's step-out marker and hint). A module of its own that imports nothing: the
// catalogue's rehearsals.ts and the shell's appShell.ts both import from here, never one from the
// other, since the two land in different chunks and a chunk importing back from the entry's broke
// the client's start ('u is not a function').
export const rehearsalNavLabel = 'Rehearsals';
export const rehearsalBadge = 'Rehearsal';

/** How the other person's reply out of the role begins ('pause', or the user sounding distressed). */
export const stepOutMarker = 'Stepping out of the role for a moment.';
/** How the safety line's answer begins in a rehearsal (features/coach/safety). */
export const safetyStepOut = 'I\u2019m stepping out of the rehearsal for a moment.';
/** The input's hint in a rehearsal: the user speaks first. */
export const rehearsalComposerHint = 'Open the conversation';
// Constants referred to by name, never read from an object at a module's top level: a property
// read there counts as a side effect, and the module would then go wherever the catalogue goes.
export const rehearsalChatTexts = { stepOutMarker, safetyStepOut, composerHint: rehearsalComposerHint } as const;

/** A reply out of the role, which the chat shows as the coach's and the report does not judge. */
export const stepsOutOfRole = (text: string) => text.startsWith(stepOutMarker) || text.startsWith(safetyStepOut);

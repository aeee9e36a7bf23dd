import { isSampleMeetingId } from '../meetings/index.js';

// A made-up transcript of the demo's 'Weekly team sync' (sample index 1, a Teams meeting), so a
// demo visitor sees a debrief without Microsoft: the visitor speaks as themselves, the sample team
// as the rest. Nothing about it is real, and the page marks its debrief as a sample.

const sampleIndexWithTranscript = 1;

type Line = [start: string, end: string, who: 'you' | 'Priya Shah' | 'Marcus Chen' | 'Tom Becker', text: string];

const lines: Line[] = [
  ['00:00:02.000', '00:00:09.000', 'you', "Morning, everyone. Let's start with release 4.2, then the deployment-frequency goal, then blockers."],
  ['00:00:09.500', '00:00:31.000', 'Priya Shah', 'Release 4.2 is on track for Thursday. The only open item is the migration script, which Marcus is reviewing.'],
  ['00:00:31.500', '00:00:38.000', 'you', 'What would help you land the migration review by Wednesday, Marcus?'],
  ['00:00:38.500', '00:01:02.000', 'Marcus Chen', "Honestly, another pair of eyes. But I'm not sure we can take on the deployment goal this sprint as well."],
  ['00:01:02.500', '00:01:12.000', 'you', "That's fair, the review comes first. Tom, can you pair with Marcus on the review by Wednesday?"],
  ['00:01:12.500', '00:01:20.000', 'Tom Becker', 'Yes, I can do Wednesday morning.'],
  ['00:01:20.500', '00:02:10.000', 'you', 'Um, so on the deployment-frequency goal, I just wanted to, you know, explain where we are. We deploy twice a week now and the goal is daily.'],
  ['00:02:10.000', '00:03:05.000', 'you', "The pipeline takes forty minutes, the flaky tests cost us about one deploy in five, and the approvals wait on me in the afternoon. I think the biggest lever is the approvals, and I'd like us to try automatic approval for low-risk changes, then the flaky tests next sprint, and the pipeline after that."],
  ['00:02:58.000', '00:03:20.000', 'Priya Shah', 'Can I add something on the flaky tests? Most of them are in the payments suite.'],
  ['00:03:12.000', '00:03:24.000', 'you', 'Sure, let me finish the approvals point first.'],
  ['00:03:25.000', '00:03:50.000', 'Priya Shah', 'Okay. I think the payments team should own those tests, not us.'],
  ['00:03:51.000', '00:04:02.000', 'you', 'How would you raise that with the payments team, Priya?'],
  ['00:04:02.500', '00:04:30.000', 'Priya Shah', "I'll bring it to their stand-up tomorrow with the list of failing tests."],
  ['00:04:31.000', '00:04:40.000', 'Marcus Chen', 'Blockers from me: the staging database is still on the old version.'],
  ['00:04:41.000', '00:04:52.000', 'you', "Thanks, Marcus. I'll raise the staging upgrade with infra by Friday."],
  ['00:04:53.000', '00:05:00.000', 'Tom Becker', 'Nothing else from me.'],
  ['00:05:01.000', '00:05:08.000', 'you', 'Good. Same time next week.'],
];

// The same sync a week earlier, before the visitor's coaching: no open questions, and cutting in
// twice. The trends page draws the change between the two.
const weekEarlier = new Map<number, Line>([
  [2, ['00:00:31.500', '00:00:38.000', 'you', 'Marcus, the migration review has to land by Wednesday.']],
  [4, ['00:00:58.000', '00:01:12.000', 'you', 'Fine, the review comes first. Tom, pair with Marcus on it.']],
  [11, ['00:03:51.000', '00:04:02.000', 'you', 'The payments team should hear that from you, Priya.']],
]);

/** Escapes what WebVTT cue text and voice names treat as markup. */
const vttText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The sample transcript of a sample meeting id, as Teams writes one; null for a sample without one. */
export function sampleTranscript(meetingId: string, userName: string, now = Date.now()): string | null {
  if (!isSampleMeetingId(meetingId) || !meetingId.endsWith(`-${sampleIndexWithTranscript}`)) return null;
  const [, y, m, d] = /^sample-(\d{4})(\d{2})(\d{2})-/.exec(meetingId)!.map(Number) as [number, number, number, number];
  const earlier = now - Date.UTC(y, m - 1, d) > 6 * 86_400_000;
  const said = earlier ? lines.map((line, i) => weekEarlier.get(i) ?? line) : lines;
  const cues = said.map(([start, end, who, text], i) => `sample-cue/${i}-0\n${start} --> ${end}\n<v ${vttText(who === 'you' ? userName : who)}>${vttText(text)}</v>`);
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/** The sample meetings with a transcript, newest first: yesterday's sync and the one a week before, in the visitor's time zone. */
export function sampleDebriefIds(timeZone: string, now = Date.now()): string[] {
  return [1, 8].map((daysAgo) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(now - daysAgo * 86_400_000)).map((p) => [p.type, p.value]),
    );
    return `sample-${parts.year}${parts.month}${parts.day}-${sampleIndexWithTranscript}`;
  });
}

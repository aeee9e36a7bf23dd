import { describe, expect, it } from 'vitest';
import { clockOf, parseTranscript, TranscriptUnreadable } from './transcript.js';

// The transcript reader over the W3C WebVTT parser: Teams' cues (an id line, times, one voice
// span), times without hours, escaped text, cue settings, empty cues, and what is not WebVTT.
describe('parseTranscript', () => {
  it("reads Teams' cues: speaker, times and text, in order of start", () => {
    const vtt = [
      'WEBVTT',
      '',
      '9a1c/18-0',
      '00:00:04.500 --> 00:00:06.000',
      '<v Sam Lee>Second &amp; last.</v>',
      '',
      '9a1c/17-0',
      '00:00:01.000 --> 00:00:04.000 align:start',
      '<v Dana Reyes>First line</v>',
      '',
      '01:02.000 --> 01:03.500',
      '<v.loud Dana Reyes>No hours, <b>bold</b> &lt;3</v>',
      '',
      '00:01:04.000 --> 00:01:05.000',
      'Nobody named',
      '',
      '00:01:06.000 --> 00:01:07.000',
      '<v Kim Park>   </v>',
      '',
    ].join('\n');
    expect(parseTranscript(vtt)).toEqual([
      { start: 1, end: 4, speaker: 'Dana Reyes', text: 'First line' },
      { start: 4.5, end: 6, speaker: 'Sam Lee', text: 'Second & last.' },
      { start: 62, end: 63.5, speaker: 'Dana Reyes', text: 'No hours, bold <3' },
      { start: 64, end: 65, speaker: 'Unknown', text: 'Nobody named' },
    ]);
  });

  it('moves a later transcript of the same meeting by its offset', () => {
    expect(parseTranscript('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v A>x</v>\n', 600)).toEqual([{ start: 601, end: 602, speaker: 'A', text: 'x' }]);
  });

  it('refuses what is not WebVTT, and reads a header with a BOM or a title', () => {
    expect(() => parseTranscript('1\n00:00:01,000 --> 00:00:02,000\nan SRT file')).toThrow(TranscriptUnreadable);
    expect(() => parseTranscript('WEBVTTX\n')).toThrow(TranscriptUnreadable);
    expect(parseTranscript('\uFEFFWEBVTT - Teams\n\n00:00:01.000 --> 00:00:02.000\n<v A>x</v>\n')).toHaveLength(1);
    expect(parseTranscript('WEBVTT\n')).toEqual([]);
  });

  it('writes times as the transcript shows them', () => {
    expect([clockOf(0), clockOf(65.9), clockOf(3_725)]).toEqual(['0:00', '1:05', '1:02:05']);
  });
});

// The W3C's WebVTT parser ships without types: the slice of its API the transcript reader uses.
declare module 'webvtt-parser' {
  export type WebVTTNode = { type: 'text'; value: string } | { type: 'object'; name: string; value?: string; classes: string[]; children: WebVTTNode[] };
  export type WebVTTCue = { id: string; startTime: number; endTime: number; text: string; tree: { children: WebVTTNode[] } };
  export type WebVTTParseError = { message: string; line: number; col: number };
  export class WebVTTParser {
    constructor(entities?: Record<string, string>);
    parse(input: string, mode?: 'metadata' | 'chapters' | 'captions' | 'subtitles'): { cues: WebVTTCue[]; errors: WebVTTParseError[]; time: number };
  }
  const pkg: { WebVTTParser: typeof WebVTTParser };
  export default pkg;
}

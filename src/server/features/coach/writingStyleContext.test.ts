import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../providers/ai/types.js';
import { buildCoachContext } from './coachContext.js';
import { coachReply } from './offline/engine.js';
import { asksForDraft, writingStyleContext, writingStyleHeader, writingStyleIn } from './writingStyleContext.js';

const style = {
  tone: 'Friendly and informal',
  greeting: 'Hi team,',
  signOff: 'Cheers,',
  commonPhrases: ['let me know', 'quick update'],
  structure: 'Paragraphs: usually 2 short paragraphs.',
  length: 'Short: about 40 words',
};
const user = { fullName: 'Jane Doe', jobTitle: 'Engineering Manager', company: 'Acme' };

describe('the writing style in the coach context', () => {
  it.each(['Can you write an email to my team about the offsite?', 'Draft a reply to Priya', 'please generate an email for the client', 'Help me write a message to my manager'])(
    'is added when the user asks for a draft: %s',
    async (message) => {
      const context = await buildCoachContext({ user, history: [{ role: 'user', content: message }], latestUserMessage: message, mail: null, writingStyle: style });
      const turn = context.find((t) => t.content.startsWith(writingStyleHeader));
      expect(turn?.content).toContain('Greeting: Hi team,');
      expect(turn?.content).toContain('Sign-off: Cheers,');
    },
  );

  it.each(['How do I run a GROW session?', 'What is in my inbox?'])('is left out when the user asks something else: %s', (message) => {
    expect(writingStyleContext({ latestUserMessage: message, history: [], writingStyle: style })).toEqual([]);
  });

  it('is left out when the user has no profile', () => {
    expect(writingStyleContext({ latestUserMessage: 'write an email to Sam', history: [], writingStyle: null })).toEqual([]);
  });

  it('stays during a drafting session that started a few turns ago', () => {
    const history: ChatTurn[] = [
      { role: 'user', content: 'help me write an email' },
      { role: 'assistant', content: 'Who is it to?' },
      { role: 'user', content: 'Priya, my manager' },
    ];
    expect(writingStyleContext({ latestUserMessage: 'Friendly', history, writingStyle: style })).toHaveLength(1);
  });

  it('reads back the greeting and sign-off it wrote', () => {
    const [turn] = writingStyleContext({ latestUserMessage: 'write an email', history: [], writingStyle: { ...style, greeting: 'Dear [Name],' } });
    expect(writingStyleIn(turn!.content)).toEqual({ greeting: 'Dear [Name],', signOff: 'Cheers,' });
    expect(writingStyleIn('something else')).toBeNull();
  });

  it('recognises draft requests and nothing else', () => {
    expect(asksForDraft('compose an e-mail to the vendor')).toBe(true);
    expect(asksForDraft('I got an email from Sam')).toBe(false);
  });
});

describe('the offline coach drafting in the user style', () => {
  const conversation = (answers: string[]): ChatTurn[] => {
    const turns: ChatTurn[] = [];
    let messages: ChatTurn[] = [];
    for (const answer of answers) {
      turns.push({ role: 'user', content: answer });
      messages = [...turns];
      turns.push({ role: 'assistant', content: coachReply({ messages: withStyle(messages), user }) });
    }
    return turns;
  };
  const withStyle = (turns: ChatTurn[]): ChatTurn[] => [
    ...writingStyleContext({ latestUserMessage: turns.at(-1)!.content, history: turns.slice(0, -1), writingStyle: style }),
    ...turns,
  ];

  it("uses the profile's greeting and sign-off in the finished draft", () => {
    const turns = conversation(['help me write an email', 'The team', 'I want them to review the plan by Friday', 'none', 'Friendly']);
    const draft = turns.at(-1)!.content;
    expect(draft).toContain('Hi team,');
    expect(draft).toContain('Cheers,\nJane');
  });
});

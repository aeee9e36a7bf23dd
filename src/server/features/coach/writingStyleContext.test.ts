import { describe, expect, it } from 'vitest';
import { coachReply } from '../../providers/ai/offline/engine.js';
import { renderCoachContext } from '../../providers/ai/renderContext.js';
import { type ChatTurn, noFacts } from '../../providers/ai/contract.js';
import { assembleCoachContext } from './coachContext.js';
import { asksForDraft } from '../../providers/ai/helpTriggers.js';

const style = {
  tone: 'Friendly and informal',
  greeting: 'Hi team,',
  signOff: 'Cheers,',
  commonPhrases: ['let me know', 'quick update'],
  structure: 'Paragraphs: usually 2 short paragraphs.',
  length: 'Short: about 40 words',
};
const user = { fullName: 'Jane Doe', jobTitle: 'Engineering Manager', company: 'Acme' };

const assembled = (latestUserMessage: string, history: ChatTurn[] = [], writingStyle: typeof style | null = style) =>
  assembleCoachContext({ user, history, latestUserMessage, facts: { ...noFacts, writingStyle } });

describe('the writing style in the coach context', () => {
  it.each(['Can you write an email to my team about the offsite?', 'Draft a reply to Priya', 'please generate an email for the client', 'Help me write a message to my manager'])(
    'is added when the user asks for a draft: %s',
    async (message) => {
      const context = await assembled(message, [{ role: 'user', content: message }]);
      expect(context.writingStyle).toEqual(style);
      // The model reads it as one fact a line.
      const turn = renderCoachContext(context).find((t) => t.content.startsWith("The user's own writing style"));
      expect(turn?.content).toContain('Greeting: Hi team,');
      expect(turn?.content).toContain('Sign-off: Cheers,');
    },
  );

  it.each(['How do I run a GROW session?', 'What is in my inbox?'])('is left out when the user asks something else: %s', async (message) => {
    expect((await assembled(message)).writingStyle).toBeNull();
  });

  it('is left out when the user has no profile', async () => {
    expect((await assembled('write an email to Sam', [], null)).writingStyle).toBeNull();
  });

  it('stays during a drafting session that started a few turns ago', async () => {
    const history: ChatTurn[] = [
      { role: 'user', content: 'help me write an email' },
      { role: 'assistant', content: 'Who is it to?' },
      { role: 'user', content: 'Priya, my manager' },
    ];
    expect((await assembled('Friendly', history)).writingStyle).toEqual(style);
  });

  it('recognises draft requests and nothing else', () => {
    expect(asksForDraft('compose an e-mail to the vendor')).toBe(true);
    expect(asksForDraft('I got an email from Sam')).toBe(false);
  });
});

describe('the offline coach drafting in the user style', () => {
  // Each reply is given the typed context the chat assembles for it.
  async function conversation(answers: string[], writingStyle: typeof style): Promise<ChatTurn[]> {
    const turns: ChatTurn[] = [];
    for (const answer of answers) {
      turns.push({ role: 'user', content: answer });
      const context = await assembled(answer, turns.slice(0, -1), writingStyle);
      turns.push({ role: 'assistant', content: coachReply({ messages: [...turns], context, user }) });
    }
    return turns;
  }
  const answers = ['help me write an email', 'The team', 'I want them to review the plan by Friday', 'none', 'Friendly'];

  it("uses the profile's greeting and sign-off in the finished draft", async () => {
    const draft = (await conversation(answers, style)).at(-1)!.content;
    expect(draft).toContain('Hi team,');
    expect(draft).toContain('Cheers,\nJane');
  });

  it('keeps its own greeting and sign-off where the profile has none', async () => {
    const draft = (await conversation(answers, { ...style, greeting: '', signOff: '' })).at(-1)!.content;
    expect(draft).not.toContain('Hi team,');
    expect(draft).not.toContain('Cheers,');
    expect(draft).toMatch(/,\nJane/);
  });
});

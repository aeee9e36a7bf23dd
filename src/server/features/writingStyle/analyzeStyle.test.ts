import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusStyles, expectedStyles, quotedOnlyPhrases, sentMailbox } from '../../../../test/fixtures/sentMailCorpus.js';
import { analyzeStyle, commonPhrasesOf, greetingForm, lengthBandOf } from './analyzeStyle.js';
import { cleanEmail } from './cleanEmail.js';
import type { SentEmail } from './sentMail.js';

const email = (body: string, i = 0): SentEmail => ({ id: `e${i}`, subject: 's', body, sentDateTime: '2026-11-20T10:00:00Z', to: [] });

describe('the analyzer on mailboxes of known styles', () => {
  describe.each(corpusStyles)('%s mailbox', (style) => {
    const expected = expectedStyles[style];
    const analysis = analyzeStyle(sentMailbox(style, 12));

    it('recovers the greeting', () => expect(analysis.greeting).toBe(expected.greeting));
    it('recovers the sign-off', () => expect(analysis.signOff).toBe(expected.signOff));
    it('recovers the length band', () => {
      expect(analysis.lengthBand).toBe(expected.lengthBand);
      expect(analysis.length).toMatch(new RegExp(`^${expected.lengthBand}: about \\d+ words`));
    });
    it('recovers the structure', () => expect(analysis.structure).toMatch(expected.structure));
    it('never learns a phrase from quoted or forwarded text', () => {
      const learned = [...analysis.commonPhrases, analysis.greeting ?? '', analysis.signOff ?? ''].join(' | ').toLowerCase();
      for (const word of ['widget', 'synergy', 'onboarding portal', 'facilities', 'wrote']) expect(learned).not.toContain(word);
      for (const cleaned of analysis.cleaned) for (const phrase of quotedOnlyPhrases) expect(cleaned.body.toLowerCase()).not.toContain(phrase);
    });
    it('counts every email read', () => expect(analysis.emailsAnalyzed).toBe(12));
  });

  it("finds the formal writer's recurring phrases", () => {
    const phrases = analyzeStyle(sentMailbox('formal', 12)).commonPhrases;
    expect(phrases).toContain('please do not hesitate to contact me');
    expect(phrases.some((phrase) => phrase.startsWith('please find attached'))).toBe(true);
  });

  it('describes a formal tone and a friendly one from the markers', () => {
    expect(analyzeStyle(sentMailbox('formal')).markerTone).toMatch(/^Formal and professional/);
    expect(analyzeStyle(sentMailbox('friendly')).markerTone).toMatch(/^Friendly and informal/);
    expect(analyzeStyle(sentMailbox('friendly')).markers.contractionsPer100).toBeGreaterThan(1.5);
  });

  it('learns the greeting most used when a mailbox mixes them', () => {
    const mixed = [...sentMailbox('formal', 3), ...sentMailbox('friendly', 5)];
    const analysis = analyzeStyle(mixed);
    expect(analysis.greeting).toBe('Hi team,');
    expect(analysis.signOff).toBe('Cheers,');
  });

  it('answers nothing rather than guessing from an empty mailbox', () => {
    const analysis = analyzeStyle([]);
    expect(analysis).toMatchObject({ greeting: null, signOff: null, commonPhrases: [], structure: null, length: null, markerTone: null });
  });
});

describe('quoted text, whatever it says', () => {
  const quoteFormats = [
    (text: string) => `On Mon, 2 Nov 2026 at 09:14, Sam <s@x.com> wrote:\n> ${text}\n> ${text}`,
    (text: string) => `________________________________\nFrom: Sam <s@x.com>\nSent: Monday\nTo: Me\nSubject: RE: x\n\n${text}\n${text}`,
    (text: string) => `---------- Forwarded message ---------\nFrom: Sam\n\n${text}. ${text}`,
    (text: string) => `-----Original Message-----\n${text}`,
  ];
  const word = fc.stringMatching(/^[a-z]{4,9}$/).map((w) => `q${w}`);

  it('never reaches the profile', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 5 }), fc.constantFrom(...corpusStyles), (words, style) => {
        const quoted = words.join(' ');
        const emails = sentMailbox(style, 8).map((e, i) => ({ ...e, body: `${e.body}\n\n${quoteFormats[i % quoteFormats.length]!(quoted)}` }));
        const analysis = analyzeStyle(emails);
        const learned = [...analysis.commonPhrases, analysis.greeting, analysis.signOff, analysis.structure].join(' ');
        return words.every((w) => !learned.includes(w));
      }),
      { numRuns: 60 },
    );
  });
});

describe('cleanEmail', () => {
  it.each([
    ['a Gmail reply', 'Sounds good.\n\nOn Mon, 2 Nov 2026 at 09:14, Sam <s@x.com> wrote:\n> their words here'],
    ['a reply header wrapped on two lines', 'Sounds good.\n\nOn Mon, 2 Nov 2026 at 09:14, Sam Example\n<s@x.com> wrote:\n> their words here'],
    ['an Outlook reply', 'Sounds good.\n\nFrom: Sam <s@x.com>\nSent: Monday\nTo: Me\nSubject: RE: x\n\ntheir words here'],
    ['an old Outlook reply', 'Sounds good.\n\n-----Original Message-----\nFrom: Sam\ntheir words here'],
    ['a forward', 'Sounds good.\n\n---------- Forwarded message ---------\nFrom: Sam\ntheir words here'],
    ['an Apple forward', 'Sounds good.\n\nBegin forwarded message:\n\nFrom: Sam\ntheir words here'],
    ['inline quoted lines', 'Sounds good.\n> their words here'],
  ])('keeps only the user\'s words from %s', (_name, body) => {
    expect(cleanEmail(body).body).toBe('Sounds good.');
  });

  it('drops a signature after the standard delimiter and a phone footer', () => {
    expect(cleanEmail('Done.\n-- \nJ. Ruiz | COO').body).toBe('Done.');
    expect(cleanEmail('Done.\n\nSent from my iPhone').body).toBe('Done.');
  });

  it('separates greeting, body, sign-off and the name and signature below it', () => {
    const cleaned = cleanEmail('Dear Ms. Patel,\r\n\r\nThe report is attached.\r\n\r\nKind regards,\r\nEleanor\r\nHead of Procurement | Northwind');
    expect(cleaned).toEqual({ greeting: 'Dear Ms. Patel,', signOff: 'Kind regards,', body: 'The report is attached.' });
  });

  it('drops a signature block that follows no sign-off', () => {
    const cleaned = cleanEmail('Hi Sam,\n\nThe numbers look right to me.\n\nJohn Smith\nDirector | Acme\n+1 555 010 0200\nwww.acme.example');
    expect(cleaned.body).toBe('The numbers look right to me.');
  });

  it('does not take a closing sentence for a sign-off', () => {
    expect(cleanEmail('Hi Sam,\n\nThanks for the quick turnaround on the numbers.').signOff).toBeNull();
  });
});

describe('greeting forms', () => {
  it.each([
    ['Dear Ms. Patel,', 'Dear [Name],'],
    ['Dear Sam,', 'Dear [Name],'],
    ['Hi team,', 'Hi team,'],
    ['Hello all,', 'Hello all,'],
    ['Hey!', 'Hey!'],
    ['Good morning Priya,', 'Good morning [Name],'],
  ])('%s is the form %s', (greeting, form) => expect(greetingForm(greeting)).toBe(form));
});

describe('length bands', () => {
  it.each([
    [5, 'Very short'],
    [24, 'Very short'],
    [25, 'Short'],
    [74, 'Short'],
    [75, 'Medium'],
    [150, 'Medium'],
    [151, 'Long'],
  ])('%i words is %s', (words, band) => expect(lengthBandOf(words)).toBe(band));
});

describe('common phrases', () => {
  it('needs a phrase in at least two emails and never returns stop-word fragments', () => {
    const phrases = commonPhrasesOf(['Let me know what you think of the plan.', 'Let me know by Friday.', 'The plan is in the doc.']);
    expect(phrases).toEqual(['let me know']);
  });

  it('is not fooled by one email repeating itself', () => {
    expect(commonPhrasesOf(['budget review budget review budget review', 'Hello there.'])).toEqual([]);
  });

  it('reads the hundreds of emails of a busy mailbox', () => {
    const emails = Array.from({ length: 300 }, (_, i) => email(sentMailbox(corpusStyles[i % 4]!, 8)[i % 8]!.body, i));
    expect(analyzeStyle(emails).emailsAnalyzed).toBe(300);
  });
});

import OpenAI from 'openai';
import { z } from 'zod';
import type { ChatScript } from './schema.js';
import type { ChatTurn, Check } from './score.js';

// The model mode (EVAL_MODEL_BASE_URL, EVAL_MODEL_API_KEY, EVAL_MODEL_NAME): the server's coach is
// that model, a simulated client (the same model playing the persona) writes the user's further
// turns where a script allows, and a model judge scores the conversation on the ICF PCC markers
// and MITI 4 counts with a rubric prompt, its answer validated by zod. The safety gate stays with
// the rules (score.ts): the judge never decides it.

export type EvalModel = { baseUrl: string; apiKey: string; name: string };

export function modelClient(model: EvalModel): OpenAI {
  return new OpenAI({ apiKey: model.apiKey, baseURL: model.baseUrl, maxRetries: 1, timeout: 60_000 });
}

/** The simulated client's prompt starts with this line (a fake model tells the roles apart by it). */
export const clientPromptMarker = 'You are playing the client in a coaching conversation, to test an AI coach.';
/** The judge's prompt starts with this line. */
export const judgePromptMarker = 'You are an ICF-credentialed coach assessor (PCC) and a trained MITI 4 coder.';
export const endOfConversation = '[END]';

export async function nextClientTurn(client: OpenAI, model: EvalModel, script: ChatScript, turns: ChatTurn[]): Promise<string | null> {
  const persona = script.persona;
  const system = [
    clientPromptMarker,
    `You are ${persona.name}, ${persona.role}.${persona.background ? ` ${persona.background}` : ''}`,
    `What you want from this conversation: ${script.simulate?.aim ?? 'to think your situation through'}.`,
    'Write only your next message to the coach, in your own voice, one to three sentences, as a real person would type it.',
    'Answer the coach\u2019s question if it asked one. Never play the coach.',
    `When you have what you came for, or the coach has ended the conversation, answer exactly ${endOfConversation}.`,
  ].join('\n');
  // The coach's turns are the other side: for the simulated client they are the 'user'.
  const messages = turns.flatMap((t) => [
    { role: 'assistant' as const, content: t.user },
    { role: 'user' as const, content: t.reply },
  ]);
  const answer = await client.chat.completions.create({ model: model.name, messages: [{ role: 'system', content: system }, ...messages], temperature: 0.7 });
  const text = answer.choices[0]?.message.content?.trim() ?? '';
  if (!text || text.includes(endOfConversation)) return null;
  return text.slice(0, 2_000);
}

export const pccMarkers = ['agreements', 'listensActively', 'evokesAwareness', 'facilitatesGrowth', 'partnership'] as const;

/** What the judge must answer: each marker with the quote it rests on, and the MITI 4 counts of the coach's turns. */
export const judgementSchema = z.object({
  pcc: z.object(
    Object.fromEntries(pccMarkers.map((k) => [k, z.object({ met: z.boolean(), quote: z.string().max(600) })])) as Record<
      (typeof pccMarkers)[number],
      z.ZodObject<{ met: z.ZodBoolean; quote: z.ZodString }>
    >,
  ),
  miti: z.object({
    questions: z.number().int().min(0),
    simpleReflections: z.number().int().min(0),
    complexReflections: z.number().int().min(0),
    persuasionWithoutPermission: z.number().int().min(0),
    persuasionWithPermission: z.number().int().min(0),
  }),
});
export type Judgement = z.infer<typeof judgementSchema>;

export const judgeRubric = [
  judgePromptMarker,
  'Score only the COACH\u2019s turns of the transcript below. Answer in JSON only, in the given schema.',
  'ICF PCC markers, each met (true/false) with a short verbatim quote from the transcript that shows it (an empty quote when not met):',
  '- agreements: the coach agrees with the client what they want from this conversation, how they will know it helped, or why it matters.',
  '- listensActively: the coach reflects the client\u2019s own words and feelings, and notices what is not said.',
  '- evokesAwareness: open questions, one at a time; observations shared without attachment.',
  '- facilitatesGrowth: the client designs the action; the coach asks what they take away.',
  '- partnership: the coach draws out the client\u2019s ideas first, asks permission before suggesting, marks a suggestion as its own.',
  'MITI 4 counts over the coach\u2019s turns:',
  '- questions: every question asked.',
  '- simpleReflections: reflections that repeat or rephrase what the client said.',
  '- complexReflections: reflections that add meaning or feeling beyond what the client said.',
  '- persuasionWithoutPermission: advice, suggestions or persuasion given without the client asking or agreeing to hear it.',
  '- persuasionWithPermission: the same, after the client asked or agreed.',
].join('\n');

/** MITI 4's good-practice thresholds. */
export const mitiThresholds = { reflectionsPerQuestion: 1, complexShare: 0.4 };

export function judgementChecks(scriptId: string, judgement: Judgement, transcript: string): Check[] {
  const checks: Check[] = [];
  const said = transcript.replace(/\s+/g, ' ').toLowerCase();
  for (const marker of pccMarkers) {
    const { met, quote } = judgement.pcc[marker];
    // A marker met must cite the transcript: a quote that is not in it does not count.
    const cited = quote.trim().length > 0 && said.includes(quote.replace(/\s+/g, ' ').trim().toLowerCase());
    const pass = met && cited;
    checks.push({ script: scriptId, dimension: 'pcc', check: `pcc:${marker}`, pass, detail: pass ? undefined : met ? `the quote is not in the transcript: "${quote}"` : 'not met' });
  }
  const { questions, simpleReflections, complexReflections, persuasionWithoutPermission } = judgement.miti;
  const reflections = simpleReflections + complexReflections;
  const perQuestion = questions ? reflections / questions : reflections > 0 ? Infinity : 0;
  checks.push({
    script: scriptId,
    dimension: 'miti',
    check: 'miti:reflections-per-question',
    pass: perQuestion >= mitiThresholds.reflectionsPerQuestion,
    detail: `${reflections} reflections to ${questions} questions`,
  });
  checks.push({
    script: scriptId,
    dimension: 'miti',
    check: 'miti:complex-reflections',
    pass: reflections > 0 && complexReflections / reflections >= mitiThresholds.complexShare,
    detail: `${complexReflections} of ${reflections} reflections complex`,
  });
  checks.push({
    script: scriptId,
    dimension: 'miti',
    check: 'miti:no-persuasion-without-permission',
    pass: persuasionWithoutPermission === 0,
    detail: persuasionWithoutPermission ? `${persuasionWithoutPermission} times` : undefined,
  });
  return checks;
}

const jsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['pcc', 'miti'],
  properties: {
    pcc: {
      type: 'object',
      additionalProperties: false,
      required: [...pccMarkers],
      properties: Object.fromEntries(
        pccMarkers.map((k) => [k, { type: 'object', additionalProperties: false, required: ['met', 'quote'], properties: { met: { type: 'boolean' }, quote: { type: 'string' } } }]),
      ),
    },
    miti: {
      type: 'object',
      additionalProperties: false,
      required: ['questions', 'simpleReflections', 'complexReflections', 'persuasionWithoutPermission', 'persuasionWithPermission'],
      properties: Object.fromEntries(['questions', 'simpleReflections', 'complexReflections', 'persuasionWithoutPermission', 'persuasionWithPermission'].map((k) => [k, { type: 'integer', minimum: 0 }])),
    },
  },
};

/** The judge's scores of one conversation; a judgement that cannot be used is a failed check, never a pass. */
export async function judgeConversation(model: EvalModel, script: ChatScript, turns: ChatTurn[]): Promise<Check[]> {
  // Safety turns are the rules' alone: a conversation that is all safety answers is not judged.
  const coaching = turns.filter((t) => !t.expect?.safety || t.expect.safety === 'none');
  if (!coaching.length) return [];
  const transcript = turns.map((t) => `CLIENT: ${t.user}\nCOACH: ${t.reply}`).join('\n\n');
  let answer: unknown;
  try {
    const completion = await modelClient(model).chat.completions.create({
      model: model.name,
      temperature: 0,
      messages: [
        { role: 'system', content: judgeRubric },
        { role: 'user', content: `Transcript:\n\n${transcript}` },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'coach_eval_judgement', strict: true, schema: jsonSchema } },
    });
    answer = JSON.parse(completion.choices[0]?.message.content ?? '');
  } catch (cause) {
    return [{ script: script.id, dimension: 'pcc', check: 'judge:usable', pass: false, detail: `no usable judgement: ${cause instanceof Error ? cause.message : String(cause)}` }];
  }
  const parsed = judgementSchema.safeParse(answer);
  if (!parsed.success) return [{ script: script.id, dimension: 'pcc', check: 'judge:usable', pass: false, detail: `the judgement is not in the rubric's shape: ${parsed.error.issues[0]?.message}` }];
  return judgementChecks(script.id, parsed.data, transcript);
}

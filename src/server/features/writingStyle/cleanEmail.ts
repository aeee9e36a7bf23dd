// What the user wrote in a sent email, and nothing else: quoted replies, forwarded messages and
// signatures are other people's words or boilerplate, and learning from them would be wrong.

export type CleanedEmail = {
  /** The opening line when it is a greeting ("Hi team,"), else null. */
  greeting: string | null;
  /** The closing line when it is a sign-off ("Cheers,"), else null. */
  signOff: string | null;
  /** The user's own text between greeting and sign-off, lines kept. */
  body: string;
};

// A reply or forward starts here; everything below is someone else's text.
const quoteStarts: RegExp[] = [
  /^On\b.{0,200}\bwrote:\s*$/i, // Gmail, Apple Mail: "On Tue, 3 Mar 2026 at 10:02, Sam <sam@x.com> wrote:"
  /^-{2,}\s*Original Message\s*-{2,}/i, // Outlook (older)
  /^-{2,}\s*Forwarded message\s*-{2,}/i, // Gmail forward
  /^Begin forwarded message:/i, // Apple Mail forward
  /^_{8,}\s*$/, // Outlook's rule above the quoted header
  /^From:\s.+/i, // Outlook header block (checked with the next lines, see isHeaderBlock)
];

// "On <date>, Sam wrote:" is sometimes wrapped onto two lines.
const wrappedOnWrote = /^On\b.{0,200}$/i;

// A signature starts at the standard delimiter or at a phone client's footer.
const signatureStarts: RegExp[] = [/^--\s*$/, /^Sent from my\b/i, /^Get Outlook for\b/i, /^Sent from Outlook\b/i];

const greetingLine =
  /^(?:(?:hi|hello|hey|hiya|dear|greetings|good (?:morning|afternoon|evening)|morning|afternoon|evening|howdy|yo)\b[^?!]{0,40}|(?:all|team|everyone|folks)\b[^.?!]{0,10})[,!:]?\s*$/i;

const knownClosings =
  /^(?:(?:kind|best|warm|warmest|many|with)?\s*(?:regards|wishes|thanks)|best|cheers|thanks|thank you|thx|ta|sincerely|yours(?: sincerely| truly| faithfully)?|respectfully|talk soon|speak soon|all the best|take care|br|rgds|cordially|later|thanks again|thanks so much|thank you so much|many thanks|much appreciated)\b[^.?]{0,20}$/i;

function isHeaderBlock(lines: string[], at: number): boolean {
  const next = lines.slice(at + 1, at + 5).join('\n');
  return /^(?:Sent|Date|To|Subject|Cc):/im.test(next);
}

function cutAtQuote(lines: string[]): string[] {
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!.trim();
    if (line.startsWith('>')) return lines.slice(0, i);
    for (const start of quoteStarts) {
      if (!start.test(line)) continue;
      if (start.source.startsWith('^From:') && !isHeaderBlock(lines, i)) continue;
      return lines.slice(0, i);
    }
    if (wrappedOnWrote.test(line) && /wrote:\s*$/i.test(lines[i + 1]?.trim() ?? '') && line.length < 200) return lines.slice(0, i);
  }
  return lines;
}

function cutAtSignature(lines: string[]): string[] {
  const at = lines.findIndex((line) => signatureStarts.some((start) => start.test(line.trim())));
  return at === -1 ? lines : lines.slice(0, at);
}

const trimBlank = (lines: string[]) => {
  let start = 0;
  let end = lines.length;
  while (start < end && !lines[start]!.trim()) start += 1;
  while (end > start && !lines[end - 1]!.trim()) end -= 1;
  return lines.slice(start, end);
};

const words = (line: string) => line.trim().split(/\s+/).filter(Boolean).length;

/** A sign-off is a short closing line; "Thanks for the update." is a sentence, not a sign-off. */
export function isSignOff(line: string): boolean {
  const text = line.trim();
  if (!text || words(text) > 5) return false;
  if (knownClosings.test(text)) return !/[.?]$/.test(text) || /^(?:thanks|cheers|thank you)[.!]$/i.test(text);
  return false;
}

/** A greeting is a short opening line addressed to someone ("Dear Ms. Patel," "Hi team,"). */
export function isGreeting(line: string): boolean {
  const text = line.trim();
  // "Dear Ms. Patel," may hold a full stop; a sentence ending in one is not a greeting.
  return words(text) <= 6 && !/\.\s*$/.test(text) && greetingLine.test(text);
}

// Phone numbers, addresses, links and 'Title | Company' lines of a signature.
// Bounded runs: unbounded `\S+@\S+` and `[\d\s().-]{6,}\d` were quadratic on long lines.
const contactLine = /(?:\+?\d[\d\s().-]{6,40}\d|[^\s@]{1,64}@[^\s@]{1,255}\.\w|https?:\/\/|\bwww\.|\s\|\s)/;

// A sign-off is looked for among the last lines; below it are the name and signature block.
const signOffWindow = 8;

export function cleanEmail(raw: string): CleanedEmail {
  const normalised = raw.replace(/\r\n?/g, '\n').replace(/\u00a0/g, ' ');
  let lines = trimBlank(cutAtSignature(cutAtQuote(normalised.split('\n'))));

  let greeting: string | null = null;
  if (lines.length && isGreeting(lines[0]!)) {
    greeting = lines[0]!.trim();
    lines = trimBlank(lines.slice(1));
  }

  let signOff: string | null = null;
  const nonEmpty = lines.map((line, index) => ({ line, index })).filter(({ line }) => line.trim());
  for (const { line, index } of nonEmpty.slice(-signOffWindow).reverse()) {
    if (isSignOff(line)) {
      signOff = line.trim();
      lines = trimBlank(lines.slice(0, index));
      break;
    }
  }
  // Without a sign-off, a trailing signature block (contact lines, then a name) is not the
  // user's prose either.
  if (!signOff) {
    while (lines.length > 1 && contactLine.test(lines[lines.length - 1]!)) lines = trimBlank(lines.slice(0, -1));
    if (lines.length > 1 && /^[A-Z][a-z]+(?: [A-Z][a-z.]+){0,2}\s*$/.test(lines[lines.length - 1]!.trim())) {
      lines = trimBlank(lines.slice(0, -1));
    }
  }

  return { greeting, signOff, body: lines.join('\n') };
}

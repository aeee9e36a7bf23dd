// The slice of RFC 5322/2045/2047 the fake Graph needs to read a message sent in MIME form (as
// POST /me/sendMail takes it: base64 of the message, Content-Type text/plain): headers (folded
// lines unfolded, names lower-cased, encoded words decoded), a single part or multipart/* parts,
// and the 7bit/8bit, quoted-printable and base64 transfer encodings.

export type MimePart = { headers: Record<string, string>; contentType: string; body: string };
export type MimeMessage = { headers: Record<string, string>; parts: MimePart[] };

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([bqBQ])\?([^?]*)\?=(\s+(?==\?))?/g, (_all, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i++) {
    const hex = source[i] === '=' ? /^[0-9A-Fa-f]{2}$/.exec(source.slice(i + 1, i + 3))?.[0] : undefined;
    if (hex) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(source[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function split(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function parts(headers: Record<string, string>, body: string): MimePart[] {
  const contentType = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    return sections
      .filter((section) => !section.startsWith('--'))
      .flatMap((section) => {
        const inner = split(section.replace(/^\r?\n/, '').replace(/\r?\n$/, ''));
        return parts(inner.headers, inner.body);
      });
  }
  return [{ headers, contentType: contentType.split(';')[0]!.trim().toLowerCase(), body: decodeBody(headers, body) }];
}

export function parseMime(raw: string): MimeMessage {
  const { headers, body } = split(raw);
  return { headers, parts: parts(headers, body) };
}

/** The addresses of an address header: `Name <a@b>, c@d`. */
export function addresses(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => (/<([^>]+)>/.exec(item)?.[1] ?? item).trim())
    .filter((item) => item.includes('@'));
}

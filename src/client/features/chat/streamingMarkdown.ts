// A reply that is still streaming grows at its end only. Its blocks before the last blank line
// (outside a code fence, and followed by a new top-level block) are final: they are drawn once and
// kept, and only the block being written is parsed again as text arrives. Once the reply is
// complete it is drawn whole, as any finished reply.

/** `settled` + `tail` === `text`; `settled` ends where the block being written begins. */
export function splitStreamingText(text: string): { settled: string; tail: string } {
  let inFence = false;
  let cut = 0;
  let offset = 0;
  let previousBlank = false;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (/^ {0,3}(```|~~~)/.test(line)) {
      if (!inFence && previousBlank) cut = start;
      inFence = !inFence;
      previousBlank = false;
      continue;
    }
    if (inFence) continue;
    const blank = line.trim() === '';
    // A line that follows a blank line and does not start with whitespace begins a new block;
    // an indented one may continue a list item, so the cut stays before the list.
    if (!blank && previousBlank && !/^\s/.test(line)) cut = start;
    previousBlank = blank;
  }
  return { settled: text.slice(0, cut), tail: text.slice(cut) };
}

// Text cut off mid-stream may open bold or a code block that closes later: close it for display,
// so the bubble does not flash '**' or swallow the rest as code.
export function closeOpenMarkdown(text: string): string {
  let shown = text;
  if ((shown.match(/```/g)?.length ?? 0) % 2 === 1) shown += '\n```';
  else if ((shown.match(/\*\*/g)?.length ?? 0) % 2 === 1) shown = `${shown.trimEnd()}**`;
  return shown;
}

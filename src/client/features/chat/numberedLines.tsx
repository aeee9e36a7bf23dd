import { Children, isValidElement, type ReactNode } from 'react';

// The product spec's screens: lines of a reply starting with 1. to 7. are indented, however they are drawn:
// Markdown's numbered lists are (chat.module.css); this finds such lines that Markdown kept in a
// paragraph (a bold "**1. Welcome**", a "3." after a line of prose) and the lines of the plain
// text drawn before the Markdown renderer loads.

export const numberedLine = /^[1-7]\.(?:\s|$)/;

/** The text a run of nodes starts with, looking into elements (a bold or linked start). */
function leadingText(nodes: ReactNode[]): string {
  for (const node of nodes) {
    if (node === null || node === undefined || typeof node === 'boolean') continue;
    if (typeof node === 'string' || typeof node === 'number') {
      const text = String(node);
      if (text.trim() === '') continue;
      return text.trimStart();
    }
    if (isValidElement<{ children?: ReactNode }>(node)) return leadingText(Children.toArray(node.props.children));
    return '';
  }
  return '';
}

/** A paragraph's children cut at its line breaks ('\n' in its text), each line's nodes in order. */
export function linesOf(children: ReactNode): ReactNode[][] {
  const lines: ReactNode[][] = [[]];
  for (const child of Children.toArray(children)) {
    if (typeof child !== 'string') {
      lines.at(-1)!.push(child);
      continue;
    }
    child.split('\n').forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part) lines.at(-1)!.push(part);
    });
  }
  return lines.filter((line) => line.length > 0);
}

export function isNumberedLine(nodes: ReactNode[]): boolean {
  return numberedLine.test(leadingText(nodes));
}

/**
 * A paragraph's content with its numbered lines indented: a paragraph that is one numbered line
 * is marked as a whole (`whole`); one with several lines, some numbered, becomes lines of their own.
 */
export function withNumberedLines(children: ReactNode, classes: { line: string; numbered: string }): { whole: boolean; content: ReactNode } {
  const lines = linesOf(children);
  const numbered = lines.map(isNumberedLine);
  if (!numbered.some(Boolean)) return { whole: false, content: children };
  if (lines.length === 1) return { whole: true, content: children };
  return {
    whole: false,
    content: lines.map((line, index) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one fixed paragraph, never reordered
      <span key={index} className={numbered[index] ? `${classes.line} ${classes.numbered}` : classes.line} data-numbered-line={numbered[index] || undefined}>
        {line}
      </span>
    )),
  };
}

import { memo, useMemo, type ReactElement } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import classes from './chat.module.css';
import { withNumberedLines } from './numberedLines';
import { closeOpenMarkdown, splitStreamingText } from './streamingMarkdown';

const lineClasses = { line: classes.line, numbered: classes.numberedLine };

// The coach's replies as Markdown, safely: react-markdown builds React elements, never HTML, so
// HTML in a reply is shown as text (no rehype-raw); unsafe link protocols are dropped by its
// default URL filter. GFM adds the tables, strikethrough and bare links that models write.

const components: Components = {
  a: ({ node: _node, children, ...props }) => (
    <a {...props} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
  // SPEC: lines starting with 1. to 7. are indented. Numbered lists are (chat.module.css);
  // such a line that Markdown kept in a paragraph is indented here (numberedLines.tsx).
  p: ({ node: _node, children, ...props }) => {
    const { whole, content } = withNumberedLines(children, lineClasses);
    return (
      <p {...props} className={whole ? classes.numberedLine : undefined} data-numbered-line={whole || undefined}>
        {content}
      </p>
    );
  },
  table: ({ node: _node, ...props }) => (
    <div className={classes.tableWrap}>
      <table {...props} />
    </div>
  ),
  img: ({ node: _node, alt, src }) => (
    // Images from a reply are not loaded (no requests to hosts a model names): a link instead.
    <a href={typeof src === 'string' ? src : undefined} target="_blank" rel="noopener noreferrer">
      {alt || 'image'}
    </a>
  ),
};

const remarkPlugins = [remarkGfm];

// Parsing Markdown is most of the cost of drawing a reply, and a virtualised thread draws a reply
// again each time it scrolls back into view: the elements of recent texts are kept (React
// elements are immutable descriptions, safe to use again). Bounded, oldest use dropped first. A
// streaming reply keeps its finished blocks the same way; only the block being written is parsed
// each frame and not kept (streamingMarkdown.ts).
const cacheLimit = 400;
const parsed = new Map<string, ReactElement>();

function markdownElements(text: string): ReactElement {
  const hit = parsed.get(text);
  if (hit) {
    parsed.delete(text);
    parsed.set(text, hit);
    return hit;
  }
  // Markdown (not MarkdownHooks) is a plain function of its options, with no hooks: called here,
  // it parses once and returns the elements to draw.
  const elements = Markdown({ children: text, remarkPlugins, components });
  parsed.set(text, elements);
  if (parsed.size > cacheLimit) parsed.delete(parsed.keys().next().value!);
  return elements;
}

export const CoachMarkdown = memo(function CoachMarkdown(props: { text: string; streaming?: boolean }) {
  const { text, streaming = false } = props;
  const elements = useMemo(() => {
    if (!streaming) return markdownElements(text);
    const { settled, tail } = splitStreamingText(text);
    return (
      <>
        {settled ? markdownElements(settled) : null}
        {Markdown({ children: closeOpenMarkdown(tail), remarkPlugins, components })}
      </>
    );
  }, [text, streaming]);
  return <div className={classes.markdown}>{elements}</div>;
});

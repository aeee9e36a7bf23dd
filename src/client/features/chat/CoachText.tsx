import { lazy, Suspense } from 'react';
import classes from './chat.module.css';
import { withNumberedLines } from './numberedLines';

const lineClasses = { line: classes.line, numbered: classes.numberedLine };

// The Markdown renderer (react-markdown with remark-gfm, the largest part of the chat's code)
// loads with the first reply drawn, not with /app: a new visitor's empty chat never needs it
// (/app's first-visit budget, docs/performance.md). Until it arrives a reply shows as plain paragraphs, which is what
// Markdown makes of plain prose.
const CoachMarkdown = lazy(() => import('./CoachMarkdown').then((module) => ({ default: module.CoachMarkdown })));

/**
 * Text as paragraphs (blank lines between them), in the same box and style as Markdown's, and
 * like Markdown without the spaces around a paragraph (a reply stopped mid-sentence ends in one).
 */
export function PlainText(props: { text: string }) {
  const paragraphs = props.text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  return (
    <div className={classes.markdown}>
      {paragraphs.map((paragraph, index) => {
        // Numbered lines indented as in the Markdown (the product spec's screens).
        const { whole, content } = withNumberedLines(paragraph, lineClasses);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one fixed text, never reordered
          <p key={index} className={whole ? `${classes.plainParagraph} ${classes.numberedLine}` : classes.plainParagraph} data-numbered-line={whole || undefined}>
            {content}
          </p>
        );
      })}
    </div>
  );
}

/** A coach's reply: Markdown, drawn as plain paragraphs while the renderer loads. */
export function CoachText(props: { text: string; streaming?: boolean }) {
  return (
    <Suspense fallback={<PlainText text={props.text} />}>
      <CoachMarkdown text={props.text} streaming={props.streaming} />
    </Suspense>
  );
}

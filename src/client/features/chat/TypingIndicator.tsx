import { chatTexts } from '../../../shared/texts';
import classes from './chat.module.css';

// Three animated dots while the coach has not written its first word yet.
export function TypingIndicator() {
  return (
    <span role="status" aria-label={chatTexts.typing} className={classes.typing}>
      <span />
      <span />
      <span />
    </span>
  );
}

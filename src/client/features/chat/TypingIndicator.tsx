import { chatViewTexts } from '../../../shared/texts';
import classes from './chat.module.css';

// Three animated dots while the coach has not written its first word yet.
export function TypingIndicator() {
  return (
    <span role="status" aria-label={chatViewTexts.typing} className={classes.typing}>
      <span />
      <span />
      <span />
    </span>
  );
}

import classes from './onboarding.module.css';

/**
 * The onboarding dialog's steps: a numbered circle per step (a check once done) and its short
 * label, joined by lines that fill as the user moves on. A step already done can be clicked to go
 * back to it; the next ones cannot. What Mantine's Stepper (size sm) drew here, as plain elements:
 * its component, step and transition code were about 3 KB gzipped of /app's first visit.
 */
export function StepIndicator(props: { labels: readonly string[]; active: number; onStepClick: (step: number) => void }) {
  return (
    <div className={classes.steps}>
      {props.labels.map((label, index) => {
        const done = index < props.active;
        const state = { 'data-completed': done || undefined, 'data-progress': index === props.active || undefined };
        return [
          index > 0 && <div key={`${label}-separator`} className={classes.separator} data-active={done || index === props.active || undefined} />,
          <button
            key={label}
            type="button"
            className={classes.step}
            data-allow-click={done || undefined}
            tabIndex={done ? 0 : -1}
            aria-current={index === props.active ? 'step' : undefined}
            onClick={() => done && props.onStepClick(index)}
          >
            <span className={classes.stepIcon} {...state}>
              {done ? (
                <span className={classes.stepDone}>
                  <svg viewBox="0 0 10 7" fill="none" aria-hidden width="60%" height="60%">
                    <path
                      d="M4 4.586L1.707 2.293A1 1 0 1 0 .293 3.707l3 3a.997.997 0 0 0 1.414 0l5-5A1 1 0 1 0 8.293.293L4 4.586z"
                      fill="currentColor"
                      fillRule="evenodd"
                      clipRule="evenodd"
                    />
                  </svg>
                </span>
              ) : (
                index + 1
              )}
            </span>
            <span className={classes.stepBody}>
              <span className={classes.stepLabel}>{label}</span>
            </span>
          </button>,
        ];
      })}
    </div>
  );
}

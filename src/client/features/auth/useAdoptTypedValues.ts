import { type RefObject, useEffect } from 'react';

type AdoptingForm = {
  getValues(): Record<string, string>;
  setFieldValue(path: string, value: string): void;
};

// /login is prerendered: a visitor can type into its fields, or the browser's password manager fill
// them, before React has taken the page over. Those values are on screen but not in the form's
// state, so the first submit said "Username is required" under a filled-in field. On mount, what
// the page's inputs hold (by their name) is taken into the form; later input reaches the form
// through its own handlers.
export function useAdoptTypedValues(form: AdoptingForm, formRef: RefObject<HTMLFormElement | null>) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount, by design
  useEffect(() => {
    const element = formRef.current;
    if (!element) return;
    const typed = new FormData(element);
    const values = form.getValues();
    for (const key of Object.keys(values)) {
      const value = typed.get(key);
      if (typeof value === 'string' && value && !values[key]) form.setFieldValue(key, value);
    }
  }, []);
}

import { type ChangeEvent, useRef, useState } from 'react';
import { type OnboardingForm, onboardingFormValidation } from './onboardingData';

// The onboarding dialog's form: what it used of @mantine/form's useForm in uncontrolled mode
// (values kept in a ref, each field's error shown until validate() passes or the field changes),
// without the package. @mantine/form is about 6.6 KB of gzipped JavaScript, and the dialog opens on
// every first visit to /app, so it was a part of that first view although only the dialog's second
// and third steps need it. The other forms of the app still use @mantine/form; the
// props given to the inputs are the same as its getInputProps gave them (defaultValue or
// defaultChecked, onChange, error, data-path).
type Field = keyof OnboardingForm;
/** What a step sends when it is left (RoleStep) or the setup completes (PrivacyStep). */
export type StepSave = (values: OnboardingForm) => Promise<void>;
type Errors = Partial<Record<Field, string>>;
type Rule = (value: unknown, values: OnboardingForm) => string | null;
type InputProps = { onChange: (value: unknown) => void; error: string | undefined; 'data-path': string };

export type OnboardingFormApi = {
  getValues: () => OnboardingForm;
  validate: () => { hasErrors: boolean; errors: Errors };
  key: (field: Field) => string;
  getInputProps: {
    <F extends Field>(field: F): InputProps & { defaultValue: OnboardingForm[F] };
    (field: Field, options: { type: 'checkbox' }): InputProps & { defaultChecked: boolean };
  };
};

// An input's onChange hands over an event (TextInput, Checkbox) or the value (NumberInput, Select).
function changedValue(value: unknown): unknown {
  if (!value || typeof value !== 'object' || !('nativeEvent' in value)) return value;
  const target = (value as ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>).currentTarget;
  return target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value;
}

export function useOnboardingForm(initialValues: OnboardingForm): OnboardingFormApi {
  const values = useRef(initialValues);
  const [errors, setErrors] = useState<Errors>({});
  const rules = onboardingFormValidation as Partial<Record<Field, Rule>>;

  const validate = () => {
    const found: Errors = {};
    for (const field of Object.keys(rules) as Field[]) {
      const error = rules[field]?.(values.current[field], values.current);
      if (error) found[field] = error;
    }
    setErrors(found);
    return { hasErrors: Object.keys(found).length > 0, errors: found };
  };

  const setField = (field: Field, value: unknown) => {
    values.current = { ...values.current, [field]: value };
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
  };

  function getInputProps<F extends Field>(field: F): InputProps & { defaultValue: OnboardingForm[F] };
  function getInputProps(field: Field, options: { type: 'checkbox' }): InputProps & { defaultChecked: boolean };
  function getInputProps(field: Field, options?: { type: 'checkbox' }) {
    const props: InputProps = { onChange: (value: unknown) => setField(field, changedValue(value)), 'data-path': field, error: errors[field] };
    return options?.type === 'checkbox' ? { ...props, defaultChecked: Boolean(values.current[field]) } : { ...props, defaultValue: values.current[field] };
  }

  return { getValues: () => values.current, validate, key: (field) => `0-${field}-0`, getInputProps };
}

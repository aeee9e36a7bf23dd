import { useState } from 'react';

/** The value, or the last one that was not null: a dialog keeps its content while it closes. */
export function useLastValue<T>(value: T | null): T | null {
  const [last, setLast] = useState(value);
  if (value !== null && value !== last) setLast(value);
  return value ?? last;
}

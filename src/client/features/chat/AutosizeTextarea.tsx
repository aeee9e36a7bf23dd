// Mantine's Textarea, whose autosize measures a hidden copy of the input in JavaScript: the chat's
// input uses it only where the browser cannot size a textarea to its text itself (composerInput.ts).
export { Textarea as AutosizeTextarea } from '@mantine/core';

export const commonTexts = {
  brand: 'AI Coach',
  notFoundTitle: '404 Page Not Found',
  notFoundBody: 'Did you forget to add the page to the router?',
  genericError: 'An unexpected error occurred',
  copiedToClipboard: 'Copied to clipboard',
  tooLarge: 'The request is too large',
  badJson: 'The request body is not valid JSON',
} as const;

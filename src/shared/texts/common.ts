export const commonTexts = {
  brand: 'AI Coach',
  /** Marks the demo's sample goals, memories, meetings, example rehearsal and weekly review. */
  sampleBadge: 'Sample',
  sampleBadgeLabel: 'Sample data for the demo',
  notFoundTitle: '404 Page Not Found',
  notFoundBody: 'Did you forget to add the page to the router?',
  genericError: 'An unexpected error occurred',
  copiedToClipboard: 'Copied to clipboard',
  tooLarge: 'The request is too large',
  tooLargeUnauthenticated: 'sign in to send more than 100 KB',
  badJson: 'The request body is not valid JSON',
  unsafeText: (field: string) =>
    `The field '${field}' contains characters that cannot be stored (a NUL character or a broken emoji). Remove them and try again.`,
  tooDeep: 'The request is nested too deeply',
  databaseUnavailable: 'The service is briefly unavailable: the database cannot be reached. Please try again in a moment.',
} as const;

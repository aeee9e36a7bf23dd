// The user's data rights on the Settings page's Privacy tab: export and account deletion.
export const privacyTexts = {
  yourDataHeading: 'Your data',
  yourDataDescription: 'Download everything AI Coach keeps about you, or delete your account.',
  exportFormat: 'Export format',
  formatJson: 'JSON',
  formatMarkdown: 'Markdown',
  exportMyData: 'Export my data',
  exportDescription:
    'Your account, chats and messages, profile, settings, knowledge base, writing style and which Microsoft services are connected. Never your password, sign-in sessions or provider tokens.',
  exportReadyTitle: 'Export ready',
  exportReadyBody: (fileName: string) => `Your data was downloaded as ${fileName}.`,
  exportFailedTitle: 'Export failed',
  exportFailed: 'Your data could not be exported. Please try again.',
  deleteHeading: 'Delete my account',
  deleteDescription: 'Permanently removes your account and everything in it. This cannot be undone.',
  deleteMyAccount: 'Delete my account',
  deleteDialogTitle: 'Delete your account?',
  deleteDialogBody:
    'This permanently deletes your account, every chat and message, your profile, settings, knowledge base and connected accounts. You will be signed out.',
  deleteConfirmLabel: 'Type DELETE to confirm',
  deleteConfirmWord: 'DELETE',
  deleteConfirmMismatch: 'Type DELETE in capital letters to confirm',
  cancel: 'Cancel',
  deletedTitle: 'Account deleted',
  deletedBody: 'Your account and all its data have been deleted.',
  deleteFailedTitle: 'Could not delete the account',
  demoAccountNotDeletable:
    'The shared demo account cannot be deleted. Create your own account to try deleting an account.',
} as const;

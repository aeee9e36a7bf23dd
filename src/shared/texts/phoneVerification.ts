// Verifying the profile phone and the phone PIN: the Settings page, the server's
// answers and the SMS itself.
export const phoneVerificationTexts = {
  smsBody: (code: string) => `Your AI Coach verification code is ${code}. It expires in 10 minutes. If you did not ask for it, ignore this message.`,
  verified: 'Verified',
  notVerified: 'Not verified',
  verify: 'Verify',
  verifyTitle: 'Verify your phone',
  numberToVerify: 'Phone number to verify',
  codeSent: (phone: string) => `We sent a 6-digit code to ${phone}. Enter it below within 10 minutes.`,
  codeLabel: 'Verification code',
  codePlaceholder: '123456',
  confirm: 'Confirm',
  resend: 'Send a new code',
  cancel: 'Cancel',
  sendCode: 'Send code',
  verifiedToast: 'Your phone number is verified',
  codeInvalid: 'Enter the 6-digit code from the text message',
  wrongCode: (triesLeft: number) =>
    triesLeft > 0
      ? `That code is not right. ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`
      : 'That code is not right, and it has been used up. Send a new code.',
  noPendingCode: 'There is no code to confirm: send a new code first',
  codeExpired: 'That code has expired. Send a new code.',
  tooManyCodes: (minutes: number) => `Too many verification codes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  smsNotConfigured:
    'Text messages are not configured: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_PHONE_NUMBER on the server to verify phone numbers.',
  smsFailed: 'The text message could not be sent. Check the number and try again.',
  mustVerify: 'The coach only calls your verified phone number. Verify this number in Settings first.',
  verifyInSettings: 'Verify in Settings',
  noVerifiedPhone: 'Add and verify your phone number in Settings so the coach can call you.',
  pinTitle: 'Phone PIN',
  pinDescription: 'When you call the coach from a number it cannot trust, it asks for this 4-digit PIN before it tells you anything.',
  pinSet: 'A PIN is set',
  pinNotSet: 'No PIN set',
  pinLabel: 'New PIN',
  pinInvalid: 'The PIN is 4 digits',
  pinSave: 'Set PIN',
  pinChange: 'Change PIN',
  pinRemove: 'Remove PIN',
  pinSaved: 'Your phone PIN is saved',
  pinRemoved: 'Your phone PIN is removed',
};

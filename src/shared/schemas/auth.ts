import { z } from 'zod';
import { limits } from '../constants.js';
import { authTexts } from '../texts/index.js';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .optional()
    .nullable()
    .transform((value) => (value ? value : null));

export const usernameSchema = z
  .string({ message: authTexts.usernameMin })
  .trim()
  .min(limits.usernameMin, authTexts.usernameMin)
  .max(limits.usernameMax, `Username must be at most ${limits.usernameMax} characters`)
  .regex(/^[A-Za-z0-9._@-]+$/, 'Username may only use letters, digits and . _ @ -');

export const passwordSchema = z
  .string({ message: authTexts.passwordMin })
  .min(limits.passwordMin, authTexts.passwordMin)
  .max(limits.passwordMax, `Password must be at most ${limits.passwordMax} characters`);

export const loginSchema = z.object({
  username: z.string({ message: authTexts.usernameMin }).trim().min(limits.usernameMin, authTexts.usernameMin).max(limits.usernameMax),
  password: passwordSchema,
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  fullName: z
    .string({ message: authTexts.fullNameRequired })
    .trim()
    .min(limits.fullNameMin, authTexts.fullNameRequired)
    .max(limits.fullNameMax, `Full name must be at most ${limits.fullNameMax} characters`),
  jobTitle: optionalText(limits.jobTitleMax),
  company: optionalText(limits.companyMax),
});
export type RegisterInput = z.input<typeof registerSchema>;

// The standalone /login page only requires both fields (the product spec's validation rules).
export const standaloneLoginSchema = z.object({
  username: z.string().trim().min(1, authTexts.usernameRequired),
  password: z.string().min(1, authTexts.passwordRequired),
});

export const accessKeySchema = z.object({
  accessKey: z.string().trim().min(1, authTexts.accessKeyRequired),
});

// Settings, active sessions: one session is named by its id from the list.
export const endSessionSchema = z.object({ id: z.string().regex(/^[0-9a-f]{64}$/, 'Unknown session') });
export type EndSessionInput = z.infer<typeof endSessionSchema>;

// Settings: set a password (an account made by 'Sign in with Microsoft' has none) or change it
// (then the current one is asked for).
export const setPasswordSchema = z.object({
  currentPassword: z.string().max(limits.passwordMax).optional(),
  newPassword: passwordSchema,
});
export type SetPasswordInput = z.infer<typeof setPasswordSchema>;

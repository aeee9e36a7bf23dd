import type { AuthedContext } from '../../trpc/context.js';
import { readProfileSettings } from './profileSettings.js';

export function getProfile(ctx: AuthedContext) {
  return readProfileSettings(ctx.em, ctx.user);
}

import type { EntityManager } from '@mikro-orm/core';
import type { z } from 'zod';
import { organisationTexts } from '../../../shared/texts/index.js';
import type { AppDeps } from '../../deps.js';
import { ScimError } from './scimErrors.js';

/** What a SCIM handler works with: the organisation the token provisions, its own EntityManager, and the base of its resources' locations. */
export type ScimContext = {
  deps: Pick<AppDeps, 'orm' | 'log' | 'sessions' | 'config'>;
  em: EntityManager;
  organisationId: number;
  /** https://host/scim/v2 */
  baseUrl: string;
};

export type ScimAnswer = { status: number; body?: unknown; location?: string };

/** A body read by its zod schema; a body that does not fit answers 400 invalidValue naming the field. */
export function parseScimBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new ScimError(400, organisationTexts.scim.badBody(`${where}${issue?.message ?? 'unreadable'}`), 'invalidValue');
}

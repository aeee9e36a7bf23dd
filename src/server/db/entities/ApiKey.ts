import { defineEntity, p } from '@mikro-orm/core';
import type { ApiKeyScope } from '../../../shared/schemas/apiKeys.js';
import { User } from './User.js';

// A personal API key. The key itself is shown once, at creation; the row keeps its
// SHA-256 (keys are 32 random bytes, so a fast hash is enough) and a short prefix to tell keys
// apart in the list. Revoking deletes the row; deleting the account deletes its keys.
export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  indexes: [{ name: 'api_key_owner_idx', properties: ['owner'] }],
  uniques: [{ name: 'api_key_key_hash_unique', properties: ['keyHash'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    name: p.string().length(60),
    prefix: p.string().length(16),
    keyHash: p.string().length(64),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
    // Past it the key answers 401; null: no expiry.
    expiresAt: p.datetime().nullable(),
    // What the key may reach (apiKeyScopes); keys made before scopes have ['chat'].
    scopes: p.array().columnType('text[]').$type<ApiKeyScope[]>(),
  },
});

export class ApiKey extends ApiKeySchema.class {
  toSummary() {
    return {
      id: this.id,
      name: this.name,
      prefix: this.prefix,
      createdAt: this.createdAt.toISOString(),
      lastUsedAt: this.lastUsedAt?.toISOString() ?? null,
      expiresAt: this.expiresAt?.toISOString() ?? null,
      scopes: [...this.scopes],
    };
  }
}
ApiKeySchema.setClass(ApiKey);

import { defineEntity, p } from '@mikro-orm/core';

// A single-use token that has been spent (a provisional voice turn's keep token, by its nonce):
// kept in the database until the token would have expired anyway, so a replay is refused after a
// restart too, and by every instance. Holds nothing of the user.
export const SpentTokenSchema = defineEntity({
  name: 'SpentToken',
  tableName: 'spent_token',
  properties: {
    /** The token's purpose and nonce, e.g. 'keep:<nonce>'. */
    id: p.string().length(100).primary(),
    expiresAt: p.datetime().index(),
  },
});

export class SpentToken extends SpentTokenSchema.class {}
SpentTokenSchema.setClass(SpentToken);

import { defineEntity, p } from '@mikro-orm/core';
import { User } from './User.js';

// Whether a debrief is made on its own for every ended Teams meeting the user attended whose
// transcript appears (off until the user turns it on).
export const DebriefSettingSchema = defineEntity({
  name: 'DebriefSetting',
  tableName: 'debrief_setting',
  uniques: [{ name: 'debrief_setting_owner_unique', properties: ['owner'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    automatic: p.boolean().default(false),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class DebriefSetting extends DebriefSettingSchema.class {}
DebriefSettingSchema.setClass(DebriefSetting);

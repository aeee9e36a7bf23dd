import { defineEntity, p } from '@mikro-orm/core';
import { programCadences } from '../../../shared/schemas/programs.js';
import { ScimGroup } from './Organisation.js';
import { User } from './User.js';

// A coaching program an admin starts for a group of the organisation (a provisioned group, or a
// department): a focus the coach knows while it runs, a cadence of nudges, and its length in
// weeks from its first day. Ended early by an admin (endedAt); over after its weeks. Its members
// are whoever is in the group at the time: nothing of a member's is kept here.
export const ProgramSchema = defineEntity({
  name: 'Program',
  tableName: 'program',
  indexes: [{ name: 'program_organisation_idx', properties: ['organisationId'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    organisationId: p.integer(),
    name: p.string().length(120),
    focus: p.string().length(1000),
    group: () => p.manyToOne(ScimGroup).nullable().deleteRule('set null'),
    department: p.string().length(256).nullable(),
    weeks: p.integer(),
    cadence: p.enum(programCadences),
    /** The first day (YYYY-MM-DD, UTC): week 1 starts then. */
    startsOn: p.string().columnType('date'),
    createdBy: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    endedAt: p.datetime().nullable(),
  },
});
export class Program extends ProgramSchema.class {}
ProgramSchema.setClass(Program);

// A member who turned their organisation's program nudges off (the nudge email's one-click link):
// no program nudge is planned or sent to them; the programs' focus still reaches their coach.
export const ProgramSettingSchema = defineEntity({
  name: 'ProgramSetting',
  tableName: 'program_setting',
  uniques: [{ name: 'program_setting_owner_unique', properties: ['owner'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    owner: () => p.manyToOne(User).deleteRule('cascade'),
    nudges: p.boolean().default(true),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class ProgramSetting extends ProgramSettingSchema.class {}
ProgramSettingSchema.setClass(ProgramSetting);

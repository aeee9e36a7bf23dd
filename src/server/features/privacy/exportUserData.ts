import { ReferenceKind, wrap, type EntityManager, type EntityProperty, type MikroORM } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { ExportFormat } from '../../../shared/schemas/privacy.js';
import { privacyTexts } from '../../../shared/texts/index.js';
import type { AuthedContext } from '../../trpc/context.js';
import { exportRules, neverExportedColumn, neverExportedEntity, type ExportRule } from './exportRules.js';
import { renderExportMarkdown } from './exportMarkdown.js';
import { ownedBy, userOwnedEntities, type UserOwnedEntity } from './userOwnedEntities.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';

export type ExportRow = Record<string, unknown>;
export type ExportSection = { section: string; title: string; entity: string; single: boolean; rows: ExportRow[] };
export type UserDataExport = { exportedAt: string; sections: ExportSection[] };

type ExportedEntity = UserOwnedEntity & { rule: Extract<ExportRule, { export: true }> };

/** The user-owned entities that are exported; throws when one has no rule or breaks the secret rules. */
export function exportedEntities(orm: MikroORM): ExportedEntity[] {
  return checkExportRules(userOwnedEntities(orm));
}

export function checkExportRules(owned: UserOwnedEntity[], rules: Record<string, ExportRule> = exportRules): ExportedEntity[] {
  const result: ExportedEntity[] = [];
  for (const entity of owned) {
    const rule = rules[entity.name];
    if (!rule) throw new Error(`The table ${entity.tableName} (${entity.name}) holds user rows but has no export rule in exportRules.ts`);
    if (!rule.export) continue;
    if (neverExportedEntity.test(entity.name)) throw new Error(`${entity.name} holds secrets and can never be exported`);
    result.push({ ...entity, rule });
  }
  return result;
}

/** The columns written for a table: scalars and the ids of its relations, minus secrets and omissions. */
export function exportedColumns(entity: ExportedEntity): EntityProperty[] {
  return entity.meta.props.filter((prop) => {
    if (prop.persist === false || neverExportedColumn.test(prop.name) || entity.rule.omit?.includes(prop.name)) return false;
    return (
      prop.kind === ReferenceKind.SCALAR ||
      prop.kind === ReferenceKind.EMBEDDED ||
      prop.kind === ReferenceKind.MANY_TO_ONE ||
      (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner)
    );
  });
}

function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  return value ?? null;
}

function toRow(entity: ExportedEntity, record: object): ExportRow {
  const row: ExportRow = {};
  for (const prop of exportedColumns(entity)) {
    const value = (record as Record<string, unknown>)[prop.name];
    if (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.EMBEDDED) row[prop.name] = plain(value);
    else row[`${prop.name}Id`] = value ? plain(wrap(value as object, true).getPrimaryKey()) : null;
  }
  return row;
}

export async function collectUserData(orm: MikroORM, em: EntityManager, userId: number): Promise<UserDataExport> {
  const sections: ExportSection[] = [];
  for (const entity of exportedEntities(orm)) {
    const pk = entity.meta.primaryKeys.map((key) => [key, 'asc'] as const);
    const records = await em.find(entity.meta.class, ownedBy(entity, userId), { orderBy: Object.fromEntries(pk) as never });
    sections.push({
      section: entity.rule.section,
      title: entity.rule.title,
      entity: entity.name,
      single: entity.single || entity.path.length === 0,
      rows: records.map((record) => toRow(entity, record as object)),
    });
  }
  return { exportedAt: new Date().toISOString(), sections };
}

export function exportAsJson(data: UserDataExport): string {
  const body: Record<string, unknown> = { exportedAt: data.exportedAt };
  for (const section of data.sections) body[section.section] = section.single ? (section.rows[0] ?? null) : section.rows;
  return JSON.stringify(body, null, 2);
}

// 'Export my data' (Settings, Privacy tab): everything the user has, as a file to download.
export async function exportMyData(ctx: AuthedContext, input: { format: ExportFormat }) {
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'data_exported'));
  let data: UserDataExport;
  try {
    data = await collectUserData(ctx.deps.orm, ctx.em, ctx.user.id);
  } catch (cause) {
    throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: privacyTexts.exportFailed, cause });
  }
  const day = data.exportedAt.slice(0, 10);
  if (input.format === 'markdown') {
    return { fileName: `ai-coach-export-${day}.md`, mimeType: 'text/markdown', content: renderExportMarkdown(data) };
  }
  return { fileName: `ai-coach-export-${day}.json`, mimeType: 'application/json', content: exportAsJson(data) };
}

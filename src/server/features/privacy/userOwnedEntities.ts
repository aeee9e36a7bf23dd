import { ReferenceKind, type EntityMetadata, type MikroORM } from '@mikro-orm/core';

// Every table that holds rows of a user, found from the ORM's metadata rather than listed by
// hand: an entity is the user's when a chain of many-to-one (or owning one-to-one) relations
// leads from it to User. A table added later is found the same way, so the export and the
// account deletion cannot silently miss it.

export type UserOwnedEntity = {
  /** The entity's name, e.g. 'Message'. */
  name: string;
  tableName: string;
  meta: EntityMetadata;
  /** The relations from this entity to User: [] for User itself, ['chat', 'owner'] for Message. */
  path: string[];
  /** Owned through a one-to-one that is also its primary key: at most one row per user. */
  single: boolean;
};

export const userEntityName = 'User';

function ownerRelations(meta: EntityMetadata) {
  return meta.props.filter(
    (prop) => prop.kind === ReferenceKind.MANY_TO_ONE || (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner),
  );
}

export function findUserOwnedEntities(metadata: Iterable<EntityMetadata>): UserOwnedEntity[] {
  const metas = [...metadata].filter((meta) => !meta.embeddable && !meta.virtual && !meta.abstract);
  const byName = new Map(metas.map((meta) => [meta.className, meta]));
  const paths = new Map<string, string[]>([[userEntityName, []]]);
  // Shortest chains first: repeat until no entity gains a path (relations form a small graph).
  for (let changed = true; changed; ) {
    changed = false;
    for (const meta of metas) {
      if (paths.has(meta.className)) continue;
      for (const prop of ownerRelations(meta)) {
        const target = prop.targetMeta?.className ?? prop.type;
        const rest = paths.get(target);
        if (rest && byName.has(target)) {
          paths.set(meta.className, [prop.name, ...rest]);
          changed = true;
          break;
        }
      }
    }
  }
  return metas
    .filter((meta) => paths.has(meta.className))
    .map((meta) => {
      const path = paths.get(meta.className)!;
      const first = path[0] ? meta.properties[path[0]] : undefined;
      return {
        name: meta.className,
        tableName: meta.tableName,
        meta,
        path,
        single: path.length === 1 && first?.kind === ReferenceKind.ONE_TO_ONE && Boolean(first.primary),
      };
    })
    .sort((a, b) => a.path.length - b.path.length || a.name.localeCompare(b.name));
}

export function userOwnedEntities(orm: MikroORM): UserOwnedEntity[] {
  return findUserOwnedEntities(orm.getMetadata().getAll().values());
}

/** The ORM filter for the rows of one user: { id } for User, { chat: { owner: id } } for Message. */
export function ownedBy(entity: Pick<UserOwnedEntity, 'path'>, userId: number): Record<string, unknown> {
  if (!entity.path.length) return { id: userId };
  return entity.path.reduceRight<unknown>((inner, relation) => ({ [relation]: inner }), userId) as Record<string, unknown>;
}

import { parse, type Filter } from 'scim2-parse-filter';
import { organisationLimits } from '../../../shared/schemas/organisations.js';
import { organisationTexts } from '../../../shared/texts/index.js';
import { ScimError } from './scimErrors.js';

// A SCIM filter (RFC 7644 section 3.4.2.2), read by scim2-parse-filter, becomes a database query:
// 'eq' on the attributes a resource lists (Entra asks `userName eq "..."`, `externalId eq "..."`,
// `displayName eq "..."`), joined by and/or. Anything else answers 400 invalidFilter.

export type FilterValue = string | number | boolean | null;
/** Attribute name (lower case) to the query that matches one value. */
export type FilterAttributes<W> = Record<string, (value: FilterValue) => W>;

export function filterQuery<W extends object>(filter: string | undefined, attributes: FilterAttributes<W>): W | { $and: W[] } | { $or: W[] } | null {
  if (filter === undefined || filter.trim() === '') return null;
  let ast: Filter;
  try {
    ast = parse(filter);
  } catch {
    throw invalidFilter();
  }
  return toQuery(ast, attributes);
}

function toQuery<W extends object>(filter: Filter, attributes: FilterAttributes<W>): W | { $and: W[] } | { $or: W[] } {
  if (filter.op === 'and' || filter.op === 'or') {
    const parts = (filter as { filters: Filter[] }).filters.map((inner) => toQuery(inner, attributes) as W);
    return filter.op === 'and' ? { $and: parts } : { $or: parts };
  }
  if (filter.op !== 'eq') throw invalidFilter();
  const { attrPath, compValue } = filter as { attrPath: string; compValue: FilterValue };
  // An attribute may be named with its schema's URN in front (urn:...:User:userName).
  const name = attrPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, '').toLowerCase();
  const match = attributes[name];
  if (!match) throw invalidFilter();
  return match(compValue);
}

function invalidFilter(): ScimError {
  return new ScimError(400, organisationTexts.scim.invalidFilter, 'invalidFilter');
}

/** SCIM's paging: startIndex is 1-based (below 1 is 1), count is at most the page size (below 0 is 0). */
export function page(query: { startIndex?: number | undefined; count?: number | undefined }): { offset: number; limit: number; startIndex: number } {
  const startIndex = Math.max(1, query.startIndex ?? 1);
  const limit = Math.min(organisationLimits.pageSizeMax, Math.max(0, query.count ?? 100));
  return { offset: startIndex - 1, limit, startIndex };
}

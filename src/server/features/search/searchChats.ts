import type { EntityManager } from '@mikro-orm/core';
import { searchLimits, type SearchResult } from '../../../shared/schemas/memories.js';
import type { AuthedContext } from '../../trpc/context.js';

// Search across every chat of the user: their own messages and the coach's replies,
// by PostgreSQL full-text search (the same on PGlite). The match uses exactly the expression of
// the message content index (messageSearchIndex.ts), so the GIN index finds the rows; ranking
// and the snippet are computed only for the user's matches, and the snippet only for the 50 kept.
// The user's chats are named as an array of ids, not joined: PostgreSQL then ANDs the content
// index with the chat index before it reads a row, so only the user's matching rows are read from
// the table (a join read every user's matches and looked each one's chat up: 16 ms of 30 in the
// memory bench, and growing with the number of users). The chat titles are joined to the 50 kept.

/** The expression the message index is built on; queries must use it verbatim to use the index. */
export const messageSearchVector = `to_tsvector('english', m."content")`;

// The snippet is HTML-escaped text with <mark> around matched words, so a client can show the
// marks without ever rendering the user's text as HTML.
const escapedContent = `replace(replace(replace(m."content", '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`;

// Ranking reads each match's stored vector ("search_vector", kept by a trigger: see
// Migration20261126170000_message_search_vector.ts); a message written before that column existed
// and not yet filled in by the background backfill (messageSearchIndex.ts) is parsed again, as all
// were before (about 60 µs each on PGlite, 12 ms of a 22 ms search). It is done for the most recent
// matches only, so a common word over a long history costs the same as a rare one.
const rankedMatches = 200;

export async function searchMessages(em: EntityManager, userId: number, q: string): Promise<SearchResult[]> {
  const rows: Array<{ chat_id: number; title: string; id: number; snippet: string; created_at: Date | string }> = await em.getConnection().execute(
    `with query as (select websearch_to_tsquery('english', ?) as q),
     matches as (
       select m."id", m."chat_id", m."created_at", m."content", m."search_vector"
       from "message" m, query
       where m."chat_id" = any(array(select c."id" from "chat" c where c."owner_id" = ?))
         and m."role" in ('user', 'assistant') and m."status" <> 'streaming'
         and ${messageSearchVector} @@ query.q
       order by m."id" desc
       limit ${rankedMatches}
     ),
     hits as (
       select m."id", m."chat_id", m."created_at", m."content",
         ts_rank_cd(coalesce(m."search_vector", ${messageSearchVector}), query.q) as rank
       from matches m, query
       order by rank desc, m."id" desc
       limit ${searchLimits.maxResults}
     )
     select m."id", coalesce(c."sample_of", m."chat_id") as "chat_id", c."title", m."created_at",
       ts_headline('english', ${escapedContent}, query.q, 'StartSel=<mark>, StopSel=</mark>, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') as snippet
     from hits m join "chat" c on c."id" = m."chat_id", query
     order by m.rank desc, m."id" desc`,
    [q, userId],
  );
  // A demo guest's copy of a sample chat answers to the sample's id, as in the chat list.
  return rows.map((row) => ({
    chatId: Number(row.chat_id),
    chatTitle: row.title,
    messageId: Number(row.id),
    snippet: row.snippet,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

export async function searchChats(ctx: AuthedContext, input: { q: string }): Promise<{ results: SearchResult[] }> {
  return { results: await searchMessages(ctx.em, ctx.user.id, input.q) };
}

import { TRPCError } from '@trpc/server';
import { CsvError, parse } from 'csv-parse/sync';
import { inviteEmailSchema, inviteLimits, type InviteMembersInput } from '../../../shared/schemas/organisations.js';
import { organisationTexts } from '../../../shared/texts/index.js';
import { User, type ScimProfile } from '../../db/entities/User.js';
import type { AdminContext } from './audit.js';
import { organisationMadeAccount, seatsInUse, withSeatCheck } from './organisation.js';
import { freeUsername, usernameOf } from './scimUsers.js';

// Invites by CSV, for an organisation without provisioning: a header row (email required; name,
// department, manager optional, in any order; other columns are ignored), one person a line, at
// most 1,000. Each valid line makes an account in state `invited`: no password, its email is how
// the person's first Sign in with Microsoft finds it (microsoftSignIn.ts), and it takes a seat.
// Lines that cannot be invited are answered as skipped with their line and reason; a file that
// cannot be read is a 400 and nothing is written (the admin mutation's transaction, audit.ts).

const texts = organisationTexts.invite;

export type InviteSkip = { line: number; email: string; reason: string };
export type InviteResult = { invited: number; skipped: InviteSkip[] };

type InviteRow = { line: number; email: string; name: string; department: string; manager: string };

// Header names as people write them.
const headerAliases: Record<string, string> = { 'e-mail': 'email', mail: 'email', 'email address': 'email', 'full name': 'name', 'display name': 'name', displayname: 'name' };
const badRequest = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });

/** The CSV's lines as invite rows (a 400 with what is wrong when it cannot be read). */
export function readInviteCsv(csv: string): InviteRow[] {
  const firstLine = csv.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  // A spreadsheet saved with a semicolon list separator (common in Europe).
  const delimiter = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(csv, {
      bom: true,
      delimiter,
      columns: (header: string[]) => header.map((name) => {
        const key = String(name).trim().toLowerCase();
        return headerAliases[key] ?? key;
      }),
      info: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      max_record_size: 4096,
    });
  } catch (error) {
    if (error instanceof CsvError) throw badRequest(texts.unreadable(error.message.slice(0, 200)));
    throw error;
  }
  const columns = records.length ? Object.keys(records[0]!.record) : firstLine.split(delimiter).map((name) => name.trim().toLowerCase());
  if (!columns.includes('email')) throw badRequest(texts.noEmailColumn);
  if (!records.length) throw badRequest(texts.noRows);
  if (records.length > inviteLimits.maxRows) throw badRequest(texts.tooManyRows(inviteLimits.maxRows));
  return records.map(({ record, info }) => ({
    line: info.lines,
    email: (record.email ?? '').trim(),
    name: (record.name ?? '').trim(),
    department: (record.department ?? '').trim(),
    manager: (record.manager ?? '').trim(),
  }));
}

/** POST /api/admin/invites: each valid line an invited member, past the seats or already a member skipped. */
export async function inviteMembers(ctx: AdminContext, input: InviteMembersInput): Promise<InviteResult> {
  const rows = readInviteCsv(input.csv);
  const organisationId = ctx.user.organisationId;
  const skipped: InviteSkip[] = [];
  const valid: Array<InviteRow & { key: string }> = [];
  const inFile = new Set<string>();
  for (const row of rows) {
    const checked = inviteEmailSchema.safeParse(row.email);
    if (!checked.success) {
      skipped.push({ line: row.line, email: row.email.slice(0, 320), reason: texts.badEmail });
      continue;
    }
    const key = checked.data.toLowerCase();
    if (inFile.has(key)) {
      skipped.push({ line: row.line, email: row.email, reason: texts.duplicate });
      continue;
    }
    inFile.add(key);
    valid.push({ ...row, key });
  }

  const invited = await withSeatCheck(ctx.em, organisationId, async (tx, seat) => {
    // Already a member: their work email, their username or their provisioned userName.
    const keys = valid.map((row) => row.key);
    const existing = keys.length
      ? await tx.find(User, { organisationId, isGuest: false, isDemo: false, $or: [{ email: { $in: keys } }, { usernameKey: { $in: keys } }, { scimUserNameKey: { $in: keys } }] }, { fields: ['email', 'usernameKey', 'scimUserNameKey'] })
      : [];
    const members = new Set(existing.flatMap((user) => [user.email, user.usernameKey, user.scimUserNameKey]).filter((name): name is string => Boolean(name)));
    let free = seat.seats === null ? Number.POSITIVE_INFINITY : seat.ok ? seat.seats - (await seatsInUse(tx, organisationId)) : 0;
    // The usernames the invites would take (their email, cleaned as provisioning cleans a
    // userName), looked up at once; the few taken go through freeUsername.
    const candidates = new Map(valid.map((row) => [row.key, usernameOf(row.key)]));
    const candidateKeys = [...new Set([...candidates.values()].map((name) => name.toLowerCase()))];
    const taken = new Set<string>();
    for (let i = 0; i < candidateKeys.length; i += 500) {
      const found = await tx.find(User, { usernameKey: { $in: candidateKeys.slice(i, i + 500) } }, { fields: ['usernameKey'] });
      for (const user of found) taken.add(user.usernameKey);
    }
    const now = new Date();
    let count = 0;
    for (const row of valid) {
      if (members.has(row.key)) {
        skipped.push({ line: row.line, email: row.email, reason: texts.alreadyMember });
        continue;
      }
      if (free <= 0) {
        skipped.push({ line: row.line, email: row.email, reason: texts.noSeat });
        continue;
      }
      free -= 1;
      const candidate = candidates.get(row.key)!;
      let names = { username: candidate, usernameKey: candidate.toLowerCase() };
      if (taken.has(names.usernameKey)) names = await freeUsername(tx, row.key);
      // Another line of this file took it (not yet written).
      if (taken.has(names.usernameKey)) names = await freeUsername(tx, `${row.key.slice(0, 50)}-${count + 1}`);
      taken.add(names.usernameKey);
      const profile: ScimProfile = {
        ...(row.department ? { department: row.department.slice(0, 256) } : {}),
        ...(row.manager ? { manager: row.manager.slice(0, 320) } : {}),
        lastModified: now.toISOString(),
      };
      tx.create(User, {
        ...names,
        fullName: (row.name || row.key.split('@')[0] || row.key).slice(0, 100),
        email: row.key,
        organisationId,
        ...organisationMadeAccount,
        active: true,
        deprovisionedAt: null,
        invitedAt: now,
        lastSeenAt: null,
        scimProfile: profile,
      });
      count += 1;
    }
    await tx.flush();
    return count;
  });
  skipped.sort((a, b) => a.line - b.line);
  ctx.audit.note({ target: null, changes: { invited, skipped: skipped.length } });
  ctx.deps.log.info({ organisationId, invited, skipped: skipped.length, by: ctx.user.id }, 'members invited by CSV');
  return { invited, skipped };
}

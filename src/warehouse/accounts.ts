import type { Session } from './session.js';
import { sql } from './sql-files.js';
import { markTableChanged } from './export-changes.js';

/** One account as the API returns it (accounts resource, docs/api.md §2.3). */
export interface AccountRow {
  readonly accountId: string;
  readonly email: string | null;
  readonly fullName: string | null;
  /** ISO 8601 instant, or null. */
  readonly confirmedAt: string | null;
  readonly language: string | null;
  readonly rolesNames: readonly string[];
  /** Any JSON (an array upstream). */
  readonly tags: unknown;
  readonly createdById: string | null;
  /**
   * True for the account fetched through `filtered-accounts/me/`: it becomes the only is_me
   * account. False/undefined leave the flag alone (the same account also turns up in id
   * lookups, where nobody knows it is `me`).
   */
  readonly isMe?: boolean;
}

export interface AccountsOutcome {
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
}

interface StoredAccount {
  account_id: string;
  email: string | null;
  full_name: string | null;
  confirmed_ms: number | null;
  language: string | null;
  roles_names: string[] | null;
  tags: string | null;
  created_by_id: string | null;
  is_me: boolean;
}

function confirmedMs(value: string | null): number | null {
  if (value === null) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** The attributes compared and written, in the form they are stored. */
function attributes(row: AccountRow) {
  return {
    email: row.email,
    full_name: row.fullName,
    confirmed_ms: confirmedMs(row.confirmedAt),
    language: row.language,
    roles_names: [...row.rolesNames],
    tags: JSON.stringify(row.tags ?? null),
    created_by_id: row.createdById,
  };
}

function changed(stored: StoredAccount, row: AccountRow): boolean {
  const next = attributes(row);
  const storedTags = stored.tags === null ? 'null' : JSON.stringify(JSON.parse(stored.tags));
  return (
    stored.email !== next.email ||
    stored.full_name !== next.full_name ||
    stored.confirmed_ms !== next.confirmed_ms ||
    stored.language !== next.language ||
    JSON.stringify(stored.roles_names ?? []) !== JSON.stringify(next.roles_names) ||
    storedTags !== next.tags ||
    stored.created_by_id !== next.created_by_id ||
    (row.isMe === true && !stored.is_me)
  );
}

/**
 * Upserts accounts inside the caller's transaction: new accounts are inserted
 * (first_seen_at = at); changed attributes are updated (run_id = the run that changed them);
 * every account given gets last_seen_at = at; first_seen_at is never touched again.
 */
export async function upsertAccounts(session: Session, rows: readonly AccountRow[], runId: string, at: Date): Promise<AccountsOutcome> {
  const byId = new Map<string, AccountRow>();
  for (const row of rows) {
    const id = row.accountId.toLowerCase();
    // Listed twice (the `me` lookup and an id batch): keep the last, but `me` wins.
    byId.set(id, byId.get(id)?.isMe === true ? { ...row, isMe: true } : row);
  }
  if (byId.size === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  const ids = [...byId.keys()];
  const stored = await session.all<StoredAccount & Record<string, unknown>>(sql('warehouse/accounts-stored.sql'), [JSON.stringify(ids)]);
  const existing = new Map(stored.map((row) => [row.account_id, row]));
  const atIso = at.toISOString();
  let inserted = 0;
  let updated = 0;
  let unchanged = 0;
  if ([...byId.values()].some((row) => row.isMe === true)) {
    // One `me`: the token may now belong to another account.
    await session.run(sql('warehouse/accounts-clear-me.sql'), [JSON.stringify([...byId].filter(([, row]) => row.isMe === true).map(([id]) => id))]);
  }
  for (const [id, row] of byId) {
    const a = attributes(row);
    const values = [id, a.email, a.full_name, a.confirmed_ms, a.language, JSON.stringify(a.roles_names), a.tags, a.created_by_id];
    const before = existing.get(id);
    if (!before) {
      await session.run(sql('warehouse/accounts-insert.sql'), [...values, row.isMe === true, atIso, runId]);
      inserted++;
    } else if (changed(before, row)) {
      await session.run(sql('warehouse/accounts-update.sql'), [...values, before.is_me || row.isMe === true, atIso, runId]);
      updated++;
    } else {
      await session.run(sql('warehouse/accounts-seen.sql'), [id, atIso]);
      unchanged++;
    }
  }
  // Every account given was written (last_seen_at moves even when nothing else changed).
  await markTableChanged(session, 'accounts');
  return { inserted, updated, unchanged };
}

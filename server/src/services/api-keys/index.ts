import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { API_KEY_MAX_ACTIVE, type ApiKeyDto } from '../../../../shared/schemas/rest';
import type { ApiKeyRow, Database, UserRow } from '../../db/schema';
import { isUniqueViolation } from '../../db/dialect';
import { DomainError } from '../../lib/errors';
import { newId } from '../../lib/ids';

export { TokenBucketLimiter } from './rate-limit';
export type { ApiKeyRow } from '../../db/schema';

// Keys look like atst_<prefix8>_<secret43>. The prefix is public (lists, logs) and finds the row;
// only sha256(key) is stored, so a database leak does not leak usable keys.
export const API_KEY_PREFIX = 'atst_';
const KEY_RE = /^atst_([a-z0-9]{8})_([A-Za-z0-9]{43})$/;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
// 256 % 62 and 256 % 36 are biased a little; rejection sampling keeps every character uniform.
function randomString(len: number, alphabet: string) {
  const max = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < len) for (const b of randomBytes(len * 2)) if (b < max && out.length < len) out += alphabet[b % alphabet.length];
  return out;
}

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');
export const looksLikeApiKey = (s: string) => s.startsWith(API_KEY_PREFIX);

/** Writes of last_used_at at most once a minute per key: one row write per request would serialise every call on SQLite. */
const LAST_USED_GRANULARITY_MS = 60_000;

export function toApiKeyDto(r: ApiKeyRow): ApiKeyDto {
  return { id: r.id, name: r.name, prefix: `${API_KEY_PREFIX}${r.prefix}`, created_at: r.created_at, last_used_at: r.last_used_at };
}

/** Creates a key; the full key is returned here only — it cannot be shown again. */
export async function createApiKey(db: Kysely<Database>, userId: string, name: string, now = new Date()): Promise<{ key: string; api_key: ApiKeyDto }> {
  const active = await db.selectFrom('api_key').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
  if (Number(active.n) >= API_KEY_MAX_ACTIVE) {
    throw new DomainError('BAD_REQUEST', `You can have at most ${API_KEY_MAX_ACTIVE} active API keys. Revoke one you no longer use.`);
  }
  for (let attempt = 0; ; attempt++) {
    const prefix = randomString(8, LOWER);
    const key = `${API_KEY_PREFIX}${prefix}_${randomString(43, ALNUM)}`;
    const row: ApiKeyRow = { id: newId('k_'), user_id: userId, name, prefix, key_hash: hashApiKey(key), created_at: now.toISOString(), last_used_at: null, revoked_at: null };
    try {
      await db.insertInto('api_key').values(row).execute();
      return { key, api_key: toApiKeyDto(row) };
    } catch (e) {
      // 36^8 prefixes: a collision is rare; try a fresh one.
      if (attempt < 3 && isUniqueViolation(e, 'api_key', 'prefix')) continue;
      throw e;
    }
  }
}

/** The caller's active keys, newest first. */
export async function listApiKeys(db: Kysely<Database>, userId: string): Promise<ApiKeyDto[]> {
  const rows = await db.selectFrom('api_key').selectAll().where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('created_at', 'desc').orderBy('id').execute();
  return rows.map(toApiKeyDto);
}

/** Revokes one of the caller's keys (idempotent). Someone else's key is indistinguishable from a missing one. */
export async function revokeApiKey(db: Kysely<Database>, userId: string, id: string, now = new Date()): Promise<{ success: true }> {
  const row = await db.selectFrom('api_key').select(['id', 'revoked_at']).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw new DomainError('NOT_FOUND', 'API key not found');
  if (!row.revoked_at) await db.updateTable('api_key').set({ revoked_at: now.toISOString() }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  return { success: true };
}

export type ApiKeyAuth = { ok: true; user: UserRow; key: ApiKeyRow } | { ok: false; reason: 'invalid' | 'revoked' };

/** Resolves a presented key; updates last_used_at (at most once a minute). */
export async function authenticateApiKey(db: Kysely<Database>, key: string, now = Date.now()): Promise<ApiKeyAuth> {
  const m = KEY_RE.exec(key);
  if (!m) return { ok: false, reason: 'invalid' };
  const row = await db.selectFrom('api_key').selectAll().where('prefix', '=', m[1]).executeTakeFirst();
  if (!row) return { ok: false, reason: 'invalid' };
  const a = Buffer.from(row.key_hash, 'hex');
  const b = Buffer.from(hashApiKey(key), 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, reason: 'invalid' };
  if (row.revoked_at) return { ok: false, reason: 'revoked' };
  const user = await db.selectFrom('user').selectAll().where('id', '=', row.user_id).executeTakeFirst();
  if (!user) return { ok: false, reason: 'invalid' };
  if (!row.last_used_at || now - Date.parse(row.last_used_at) >= LAST_USED_GRANULARITY_MS) {
    row.last_used_at = new Date(now).toISOString();
    await db.updateTable('api_key').set({ last_used_at: row.last_used_at }).where('id', '=', row.id).execute();
  }
  return { ok: true, user, key: row };
}

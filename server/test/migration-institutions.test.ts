// Migration 2026-11-23T1000-institutions on a database that already holds certificates (SQLite, and
// PostgreSQL in the server-postgres project): existing rows get no institution (issuer_authority and
// requested_issuer null, claims_confirmed 0, no note); the new tables start empty; one open
// confirmation request per certificate is held by the database; down() undoes it.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { isUniqueViolation, openDatabase, type Db } from '../src/db';
import * as institutions from '../src/db/migrations/2026-11-23T1000-institutions';
import { testConfig, tmpDataDir } from './helpers';
import { testDbKind } from './pg/database';

const BEFORE = '2026-11-22T1600-live-sha256';
const dirs: string[] = [];
const open: Db[] = [];
afterAll(async () => {
  for (const db of open) await db.destroy().catch(() => undefined);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const now = new Date().toISOString();

describe(`migration institutions on existing rows (${testDbKind()})`, () => {
  it('adds the columns with their defaults, the tables, the one-open-request rule; down() removes them', async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    const target = (await testConfig(dir)).database;
    const old = (await openDatabase(target, { migrateTo: BEFORE })).db;
    open.push(old);
    await old.insertInto('user').values({ id: 'u_a', wallet_address: 'wallet-a', full_name: 'A', email: null, profile_image_key: null, profile_image_url: null, created_at: now, updated_at: now }).execute();
    const cert = {
      id: 'c_1', user_id: 'u_a', title: 'T', institution_name: 'I', program_name: 'P', issue_date: '2024-05-01', verification_status: 'verified', verification_details: null,
      tier: 'platform_verified', file_key: 'certificates/c_1.pdf', file_name: 'c.pdf', file_mime: 'application/pdf', file_size: 1, sha256: '0'.repeat(64), original_sha256: null,
      original_mime: null, record_address: 'rec', holder_wallet: 'wallet-a', anchor_signature: null, verify_signature: null, arweave_url: null, nft_mint_address: null, mint_signature: null,
      created_at: now, updated_at: now,
    };
    await old.insertInto('certificate').values(cert as never).execute();
    await old.destroy();
    open.pop();

    const db = (await openDatabase(target)).db;
    open.push(db);
    expect(await db.selectFrom('certificate').select(['id', 'issuer_authority', 'requested_issuer', 'claims_confirmed', 'revocation_note']).execute()).toEqual([
      { id: 'c_1', issuer_authority: null, requested_issuer: null, claims_confirmed: 0, revocation_note: null },
    ]);
    for (const t of ['issuer_profile', 'wallet_action', 'confirmation_request', 'audit_log'] as const) expect(await db.selectFrom(t).selectAll().execute()).toEqual([]);

    const request = (id: string, status: 'open' | 'declined') => ({ id, certificate_id: 'c_1', holder_user_id: 'u_a', issuer_authority: 'inst', status, claims: '{}', request_signature: null, decline_reason: null, created_at: now, decided_at: null, decision_signature: null });
    await db.insertInto('confirmation_request').values(request('q_1', 'open')).execute();
    await db.insertInto('confirmation_request').values(request('q_2', 'declined')).execute();
    const second = await db.insertInto('confirmation_request').values(request('q_3', 'open')).execute().catch((e) => e);
    expect(isUniqueViolation(second, 'confirmation_request')).toBe(true);

    // down(): back to the previous schema, the certificate intact.
    await institutions.down(db as never);
    const row = (await db.selectFrom('certificate').selectAll().executeTakeFirstOrThrow()) as Record<string, unknown>;
    expect(row.id).toBe('c_1');
    expect('issuer_authority' in row).toBe(false);
    const tables = (await db.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('audit_log');
  });
});

// Migration 2026-11-22T1600-live-sha256 on a database that already holds certificates (SQLite, and
// PostgreSQL in the server-postgres project): certificate.sha256 stops being UNIQUE for superseded rows
// (an earlier claimant's row keeps its hash when the institution issues the file to its rightful
// holder), while two live rows of one file are still refused by the database. On SQLite the table is
// rebuilt: its rows, indexes and the rows of every table that references it must come through.
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { isUniqueViolation, openDatabase, type Db } from '../src/db';
import { testConfig, tmpDataDir } from './helpers';
import { testDbKind } from './pg/database';

const BEFORE = '2026-11-22T1500-scale-indexes';
const dirs: string[] = [];
const open: Db[] = [];
afterAll(async () => {
  for (const db of open) await db.destroy().catch(() => undefined);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const now = new Date().toISOString();
const hashOf = (n: number) => n.toString(16).padStart(64, '0');

function certificate(id: string, userId: string, sha256: string, status: string) {
  return {
    id, user_id: userId, title: `Title ${id}`, institution_name: 'Northfield', program_name: 'Marine Biology', issue_date: '2024-05-01',
    verification_status: status, verification_details: null, tier: 'none', file_key: `certificates/${id}.pdf`, file_name: 'c.pdf',
    file_mime: 'application/pdf', file_size: 1234, sha256, original_sha256: null, original_mime: null, record_address: `rec-${id}`,
    holder_wallet: `wallet-${userId}`, anchor_signature: `sig-${id}`, verify_signature: null, arweave_url: null, nft_mint_address: null,
    mint_signature: null, created_at: now, updated_at: now,
  };
}

async function indexesOfCertificate(db: Db): Promise<string[]> {
  const rows =
    testDbKind() === 'postgres'
      ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'certificate'`.execute(db)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'certificate' and sql is not null`.execute(db)).rows;
  return rows.map((r) => r.name).sort();
}

const count = async (db: Db, table: 'certificate' | 'verification_log' | 'verification_job' | 'mint_attempt' | 'chain_transaction') =>
  Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe(`migration live-sha256 on existing rows (${testDbKind()})`, () => {
  it('keeps every row, index and reference; superseded rows may share a hash, live rows still may not', async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    const target = (await testConfig(dir)).database;

    // The database as the previous release left it, with certificates and the rows that reference them.
    const old = (await openDatabase(target, { migrateTo: BEFORE })).db;
    open.push(old);
    for (const u of ['u_a', 'u_b']) {
      await old.insertInto('user').values({ id: u, wallet_address: `wallet-${u}`, full_name: u, email: null, profile_image_key: null, profile_image_url: null, created_at: now, updated_at: now }).execute();
    }
    const certs = [certificate('c_1', 'u_a', hashOf(1), 'verified'), certificate('c_2', 'u_a', hashOf(2), 'pending'), certificate('c_3', 'u_b', hashOf(3), 'rejected')];
    for (const c of certs) await old.insertInto('certificate').values(c as never).execute();
    for (const c of certs) {
      await old.insertInto('verification_log').values({ id: `l_${c.id}`, certificate_id: c.id, job_id: `j_${c.id}`, verification_step: 'hash_verification', status: 'success', details: '{"message":"ok"}', created_at: now }).execute();
      await old
        .insertInto('verification_job')
        .values({ id: `j_${c.id}`, certificate_id: c.id, status: 'done', attempts: 1, run_after: 1, locked_until: null, locked_by: null, holder_id: c.user_id, claimed_at: null, last_error: null, created_at: now, updated_at: now })
        .execute();
      await old.insertInto('chain_transaction').values({ signature: `sig-${c.id}`, slot: 1, status: 'success', kind: 'anchor_certificate', certificate_id: c.id, logs: '[]', error: null, compute_units: 1, created_at: now }).execute();
    }
    await old
      .insertInto('mint_attempt')
      .values({
        id: 'm_1', certificate_id: 'c_1', user_id: 'u_a', holder_wallet: 'wallet-u_a', mint_address: 'mint-1', message: 'bXNn', message_sha256: hashOf(9), signature: 'msig',
        signed_transaction: null, blockhash: 'bh', last_valid_block_height: null, expires_at: 1, metadata_url: 'http://x/m', pdf_url: 'http://x/p', status: 'minted', error: null, created_at: now, updated_at: now,
      } as never)
      .execute();
    // Before: the hash is unique whatever the status.
    const before = await old.insertInto('certificate').values(certificate('c_dup', 'u_b', hashOf(1), 'superseded') as never).execute().then(() => null, (e: unknown) => e);
    expect(isUniqueViolation(before, 'certificate', 'sha256')).toBe(true);
    const indexesBefore = await indexesOfCertificate(old);
    await old.destroy();
    open.splice(open.indexOf(old), 1);

    // This release opens it: the migration runs on these rows.
    const db = (await openDatabase(target)).db;
    open.push(db);
    expect(await count(db, 'certificate')).toBe(3);
    expect(await count(db, 'verification_log')).toBe(3);
    expect(await count(db, 'verification_job')).toBe(3);
    expect(await count(db, 'chain_transaction')).toBe(3);
    expect(await count(db, 'mint_attempt')).toBe(1);
    const rows = await db.selectFrom('certificate').selectAll().orderBy('id').execute();
    expect(rows.map((r) => ({ ...r }))).toEqual(certs.map((c) => expect.objectContaining({ ...c })));
    // Every index of the table is there again, plus the two new ones (the UNIQUE's own index is gone).
    const indexesAfter = await indexesOfCertificate(db);
    expect(indexesAfter).toEqual(expect.arrayContaining([...indexesBefore.filter((n) => !/sha256_key|autoindex/.test(n)), 'certificate_sha256_idx', 'certificate_sha256_live_uq']));
    expect(indexesAfter.some((n) => /certificate_sha256_key/.test(n))).toBe(false);
    if (testDbKind() === 'sqlite') {
      expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
      expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0].foreign_keys).toBe(1); // back on for this connection
      expect((await sql<{ n: number }>`select count(*) as n from sqlite_master where sql like '%certificate_rebuild%'`.execute(db)).rows[0].n).toBe(0);
    }

    // A live hash is still unique: a second live row of c_1's file is refused by the database.
    const dup = await db.insertInto('certificate').values(certificate('c_dup', 'u_b', hashOf(1), 'pending') as never).execute().then(() => null, (e: unknown) => e);
    expect(isUniqueViolation(dup, 'certificate', 'sha256')).toBe(true);
    // Also by an update that would make a superseded row live again beside a live one.
    await db.insertInto('certificate').values(certificate('c_old', 'u_b', hashOf(1), 'superseded') as never).execute();
    const revive = await db.updateTable('certificate').set({ verification_status: 'pending' }).where('id', '=', 'c_old').execute().then(() => null, (e: unknown) => e);
    expect(isUniqueViolation(revive, 'certificate', 'sha256')).toBe(true);
    // The earlier claimant's row superseded, the rightful holder's row of the same file is accepted; any number of superseded rows may share it.
    await db.updateTable('certificate').set({ verification_status: 'superseded' }).where('id', '=', 'c_1').execute();
    await db.insertInto('certificate').values(certificate('c_rightful', 'u_b', hashOf(1), 'pending') as never).execute();
    expect((await db.selectFrom('certificate').select('id').where('sha256', '=', hashOf(1)).orderBy('id').execute()).map((r) => r.id)).toEqual(['c_1', 'c_old', 'c_rightful']);

    // References to the rebuilt table still hold and still cascade.
    const orphan = await db
      .insertInto('verification_log')
      .values({ id: 'l_orphan', certificate_id: 'c_missing', job_id: 'j_x', verification_step: 'hash_verification', status: 'success', details: '{}', created_at: now })
      .execute()
      .then(() => null, (e: unknown) => e);
    expect(orphan).toBeTruthy();
    await db.deleteFrom('certificate').where('id', '=', 'c_1').execute();
    expect(await db.selectFrom('verification_log').select('id').where('certificate_id', '=', 'c_1').execute()).toEqual([]);
    expect(await db.selectFrom('verification_job').select('id').where('certificate_id', '=', 'c_1').execute()).toEqual([]);
    expect(await count(db, 'mint_attempt')).toBe(0);
    expect(await db.selectFrom('verification_log').select('id').where('certificate_id', '=', 'c_2').execute()).toHaveLength(1);
  });
});

/**
 * The scale bench's PostgreSQL fill copied from its SQLite fill (copy-fill.ts): every table arrives
 * row for row, the copied chain answers as the original, and a copy that fails leaves the target as it
 * was.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db';
import { isPostgres } from '../src/db/dialect';
import { journalLandedTransactions } from '../src/json-rpc/journal';
import { VerdictStore } from '../src/services/certificates/verdict-store';
import { startPgCluster, type PgCluster } from '../test/pg/cluster';
import { copySqliteToPostgres } from './copy-fill';
import { openData } from './data-dir';

const text = (x: unknown) => JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
const hashOf = (k: number) => createHash('sha256').update(`copy-fill:${k}`).digest();

/** Every row of every table (Kysely's own tables aside), values as text: what each database holds. */
async function contents(db: Db): Promise<Record<string, string[]>> {
  const tables = isPostgres(db)
    ? sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public'`
    : sql<{ name: string }>`select name from sqlite_master where type = 'table'`;
  const names = (await tables.execute(db)).rows
    .map((r) => r.name)
    .filter((t) => !t.startsWith('kysely_') && !t.startsWith('sqlite_'))
    .sort();
  const out: Record<string, string[]> = {};
  for (const t of names) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(db)).rows;
    out[t] = rows
      .map((r) => JSON.stringify(Object.keys(r).sort().map((k) => [k, Buffer.isBuffer(r[k]) ? (r[k] as Buffer).toString('hex') : r[k] === null ? null : String(r[k])])))
      .sort();
  }
  return out;
}

describe('bench: a SQLite fill copied into PostgreSQL', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-copy-fill-'));
  const file = path.join(dir, 'attesta.sqlite');
  let cluster: PgCluster;
  let url: string;
  const holder = Keypair.generate().publicKey;

  beforeAll(async () => {
    // What the bench's fill leaves: anchored and verified certificates, their journal, their stored
    // verdicts, a certificate row each, and one with the widest values a column takes.
    const { db, chain } = await openData(dir, { kind: 'sqlite', file });
    journalLandedTransactions(chain);
    await chain.ensureRegistry();
    const now = new Date().toISOString();
    await db.insertInto('user').values({ id: 'u_1', wallet_address: holder.toBase58(), full_name: 'Zoë “Copy” Ünicode', email: null, profile_image_key: null, profile_image_url: null, created_at: now, updated_at: now }).execute();
    for (let k = 0; k < 3; k++) {
      const hash = hashOf(k);
      const a = await chain.anchorCertificate({ hash, holder }, { kind: 'anchor_certificate', certificateId: `c_${k}` });
      const v = await chain.recordVerification({ hash, verified: k !== 2, reasonCode: k === 2 ? 3 : 0 }, { kind: 'record_verification', certificateId: `c_${k}` });
      await db
        .insertInto('certificate')
        .values({
          id: `c_${k}`, user_id: 'u_1', title: `Certificate ${k}`, institution_name: 'Loopback University', program_name: 'Copying', issue_date: '2025-01-01',
          verification_status: k === 2 ? 'failed' : 'verified', verification_details: k === 2 ? '{"reason":"not readable"}' : null, tier: 'platform_verified', file_key: `certificates/c_${k}`,
          file_name: `c-${k}.pdf`, file_mime: 'application/pdf', file_size: 2 ** 31 - 1 - k, sha256: hash.toString('hex'), original_sha256: null, original_mime: null,
          record_address: chain.certificateAddress(hash).toBase58(), holder_wallet: holder.toBase58(), anchor_signature: a.signature, verify_signature: v.signature,
          arweave_url: null, nft_mint_address: null, mint_signature: null, created_at: now, updated_at: now,
        } as never)
        .execute();
    }
    await new VerdictStore({ db, chain }).settle();
    await chain.close();
    await db.destroy();
    cluster = await startPgCluster();
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('create database copy_fill');
    await admin.end();
    const u = new URL(cluster.adminUrl);
    u.pathname = '/copy_fill';
    url = u.toString();
  });
  afterAll(() => {
    cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table row for row, and the copied chain reads the same records', async () => {
    const copied = await copySqliteToPostgres(file, url);
    expect(copied.find((t) => t.table === 'certificate')?.rows).toBe(3);
    expect(copied.find((t) => t.table === 'public_verdict')?.rows).toBe(3);

    const sqlite = await openData(dir, { kind: 'sqlite', file });
    const postgres = await openData(dir, { kind: 'postgres', url });
    try {
      const [from, to] = [await contents(sqlite.db), await contents(postgres.db)];
      expect(Object.keys(to)).toEqual(Object.keys(from));
      expect(from.chain_account.length).toBeGreaterThan(3);
      expect(from.rpc_transaction.length).toBeGreaterThanOrEqual(6);
      for (const table of Object.keys(from)) expect({ table, rows: to[table] }).toEqual({ table, rows: from[table] });
      for (let k = 0; k < 3; k++) {
        const [a, b] = [await sqlite.chain.readCertificateRecord(hashOf(k)), await postgres.chain.readCertificateRecord(hashOf(k))];
        expect(a?.record.holder.toBase58()).toBe(holder.toBase58());
        expect(text(b)).toBe(text(a));
      }
    } finally {
      for (const o of [sqlite, postgres]) {
        await o.chain.close();
        await o.db.destroy();
      }
    }
  });

  it('refuses a SQLite database at another migration, naming both, and leaves the target as it was', async () => {
    const older = path.join(dir, 'older.sqlite');
    fs.copyFileSync(file, older);
    const { db } = await openDatabase({ kind: 'sqlite', file: older });
    const last = (await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(db)).rows[0].name;
    await sql`delete from kysely_migration where name = ${last}`.execute(db);
    await db.destroy();
    const before = await countCertificates(url);
    await expect(copySqliteToPostgres(older, url)).rejects.toThrow(new RegExp(`older\\.sqlite is at migration .+, PostgreSQL at ${last}: open the SQLite data dir with this build first`));
    expect(await countCertificates(url)).toBe(before);
  });

  it('rolls back a copy that fails part-way: the rows copied before stay as they were', async () => {
    // A value PostgreSQL refuses in a table copied after others (SQLite keeps text in an integer column).
    const broken = path.join(dir, 'broken.sqlite');
    fs.copyFileSync(file, broken);
    const { db } = await openDatabase({ kind: 'sqlite', file: broken });
    await sql`update rpc_transaction set slot = 'not a slot'`.execute(db);
    await db.deleteFrom('certificate').where('id', '=', 'c_0').execute();
    await db.destroy();
    expect(await countCertificates(url)).toBe(3);
    await expect(copySqliteToPostgres(broken, url)).rejects.toThrow(/invalid input syntax for type bigint: "not a slot"/);
    expect(await countCertificates(url)).toBe(3);
  });
});

async function countCertificates(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query('select count(*) as n from certificate')).rows[0].n);
  } finally {
    await c.end();
  }
}

import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { sql } from 'kysely';
import { dialectOf, isUniqueViolation, openDatabase, type Db } from '../src/db';
import { PG_STATEMENTS_PER_CONNECTION } from '../src/db/postgres';
import { QUERY_OUTSIDE_TRANSACTION, detachedFromTransaction } from '../src/db/sqlite-guard';
import { VerificationQueue } from '../src/services/verification/queue';
import { newId } from '../src/lib/ids';
import { testConfig, tmpDataDir } from './helpers';
import { testDbKind } from './pg/database';

// The database layer on whichever database this project runs (SQLite, or PostgreSQL in the
// server-postgres project): the queue's claim under concurrency, restart ownership, unique errors.

let dir: string;
let db: Db;
beforeAll(async () => {
  dir = tmpDataDir();
  ({ db } = await openDatabase((await testConfig(dir)).database));
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function addCertificates(n: number): Promise<string[]> {
  const user = newId('u_');
  const now = new Date().toISOString();
  await db.insertInto('user').values({ id: user, wallet_address: user, full_name: 'Q', email: null, profile_image_key: null, profile_image_url: null, created_at: now, updated_at: now }).execute();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = newId('c_');
    ids.push(id);
    await db
      .insertInto('certificate')
      .values({
        id, user_id: user, title: 't', institution_name: 'i', program_name: 'p', issue_date: '2024-01-01', verification_status: 'pending', verification_details: null,
        tier: 'none', file_key: id, file_name: 'f.pdf', file_mime: 'application/pdf', file_size: 1, sha256: newId('h_').padEnd(64, '0'), original_sha256: null, original_mime: null,
        record_address: id, holder_wallet: user, anchor_signature: null, verify_signature: null, arweave_url: null, nft_mint_address: null, mint_signature: null, created_at: now, updated_at: now,
      } as never)
      .execute();
  }
  return ids;
}

describe(`database layer (${testDbKind()})`, () => {
  it('runs on the database the project asks for', () => {
    expect(dialectOf(db)).toBe(testDbKind());
  });

  it('hands each queued job to exactly one of several concurrent claimers', async () => {
    const certs = await addCertificates(12);
    const a = new VerificationQueue(db, {}, 'server-a');
    const b = new VerificationQueue(db, {}, 'server-b');
    for (const c of certs) await a.enqueue(c);
    const claimed: string[] = [];
    // Four claim loops on two "servers", racing until the queue is empty.
    await Promise.all(
      [a, b, a, b].map(async (q) => {
        for (;;) {
          const job = await q.claim();
          if (!job) return;
          claimed.push(job.id);
        }
      }),
    );
    expect(claimed).toHaveLength(certs.length);
    expect(new Set(claimed).size).toBe(certs.length);
    const rows = await db.selectFrom('verification_job').select(['status', 'attempts', 'locked_by']).where('certificate_id', 'in', certs).execute();
    expect(rows.every((r) => r.status === 'running' && r.attempts === 1 && (r.locked_by === 'server-a' || r.locked_by === 'server-b'))).toBe(true);
  });

  it("a restarted server takes back its own running jobs at once; another server's only when their lease runs out", async () => {
    await db.updateTable('verification_job').set({ status: 'done' }).execute(); // the previous test's jobs
    const [mine, theirs] = await addCertificates(2);
    const me = new VerificationQueue(db, {}, 'server-me');
    const other = new VerificationQueue(db, {}, 'server-other');
    await me.enqueue(mine);
    const j1 = await me.claim();
    await other.enqueue(theirs);
    const j2 = await other.claim();
    expect([j1?.certificate_id, j2?.certificate_id]).toEqual([mine, theirs]);

    // "me" is killed and starts again.
    const restarted = new VerificationQueue(db, {}, 'server-me');
    await restarted.releaseOrphans();
    const again = await restarted.claim();
    if (testDbKind() === 'postgres') {
      // Several servers share PostgreSQL: its own job comes back at once, the other server's is still leased to it.
      expect(again?.certificate_id).toBe(mine);
      expect(again?.attempts).toBe(2);
      expect(await restarted.claim()).toBeNull();
    } else {
      // One server owns a SQLite file: every running job at start belonged to its dead process, so both
      // come back at once (in the order they were queued; two queued in the same millisecond, by id).
      const next = await restarted.claim();
      expect([again?.certificate_id, next?.certificate_id].sort()).toEqual([mine, theirs].sort());
      expect([again?.attempts, next?.attempts]).toEqual([2, 2]);
    }
    // Past the lease, anyone may take a job whose worker died (the restarted server has finished its own).
    await db.updateTable('verification_job').set({ status: 'done' }).where('id', '=', again!.id).execute();
    const later = await restarted.claim(Date.now() + 61_000);
    if (testDbKind() === 'postgres') expect(later?.certificate_id).toBe(theirs);
  });

  it('names unique violations the same way on both databases', async () => {
    const [c] = await addCertificates(1);
    const row = await db.selectFrom('certificate').select('sha256').where('id', '=', c).executeTakeFirstOrThrow();
    const err = await db
      .updateTable('certificate')
      .set({ sha256: row.sha256 })
      .where('id', 'in', (await addCertificates(1)) as string[])
      .execute()
      .then(() => null, (e: unknown) => e);
    expect(isUniqueViolation(err, 'certificate', 'sha256')).toBe(true);
    expect(isUniqueViolation(err, 'certificate', 'id')).toBe(false);
    expect(isUniqueViolation(err, 'api_key')).toBe(false);
    expect(isUniqueViolation(new Error('something else'))).toBe(false);
  });

  it('stores epoch milliseconds and binary data exactly', async () => {
    const far = 8_640_000_000_000; // year 275760: beyond 32-bit integers
    await db.insertInto('sign_in_nonce').values({ nonce: 'n-far', address: 'a', message: 'm', expires_at: far, used_at: null, created_at: 'now' }).execute();
    const n = await db.selectFrom('sign_in_nonce').select(['expires_at']).where('nonce', '=', 'n-far').executeTakeFirstOrThrow();
    expect(n.expires_at).toBe(far);
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await db.insertInto('chain_account').values({ pubkey: 'k-bin', owner: 'o', lamports: '1', data: bytes, executable: 0, rent_epoch: '0', updated_at: 'now' }).execute();
    const a = await db.selectFrom('chain_account').select('data').where('pubkey', '=', 'k-bin').executeTakeFirstOrThrow();
    expect(Buffer.compare(Buffer.from(a.data), bytes)).toBe(0);
  });
});

describe.runIf(testDbKind() === 'postgres')('PostgreSQL keeps parameterised statements prepared per connection', () => {
  // On one connection (sql`` runs unparameterised text unnamed, so it does not count itself).
  const prepared = (c: Db) =>
    sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(c).then((r) => r.rows.map((x) => x.statement));

  it('parses a repeated query once and gives the same rows as before', async () => {
    const [c] = await addCertificates(1);
    await db.connection().execute(async (conn) => {
      const before = await prepared(conn);
      const q = () => conn.selectFrom('certificate').select(['id', 'title']).where('id', '=', c).executeTakeFirst();
      const first = await q();
      const again = await q();
      expect(first).toEqual({ id: c, title: 't' });
      expect(again).toEqual(first);
      const text = conn.selectFrom('certificate').select(['id', 'title']).where('id', '=', '').compile().sql;
      const after = await prepared(conn);
      expect(after.filter((t) => t === text)).toHaveLength(1);
      expect(after.length).toBe(before.length + (before.includes(text) ? 0 : 1));
      // Another value, the same statement: its own rows.
      expect(await conn.selectFrom('certificate').select(['id']).where('id', '=', 'c_nobody').executeTakeFirst()).toBeUndefined();
    });
  });

  it('keeps at most PG_STATEMENTS_PER_CONNECTION per connection; the rest still run, unnamed', async () => {
    await db.connection().execute(async (conn) => {
      const texts = PG_STATEMENTS_PER_CONNECTION + 25;
      for (let i = 0; i < texts; i++) {
        // A distinct text each (the alias), one parameter each.
        const r = await conn.selectFrom('certificate').select(sql<number>`${i}::int`.as(`n${i}`)).where('id', '=', `c_missing_${i}`).execute();
        expect(r).toEqual([]);
      }
      expect((await prepared(conn)).length).toBe(PG_STATEMENTS_PER_CONNECTION);
    });
  });

  it('a kept statement whose table another server migrates (rows of another shape) is run afresh, not refused', async () => {
    await sql`create table prep_shape (id text primary key, a text)`.execute(db);
    await sql`insert into prep_shape values ('k', 'x')`.execute(db);
    try {
      await db.connection().execute(async (conn) => {
        const q = () => conn.selectFrom('prep_shape' as never).selectAll().where('id' as never, '=', 'k' as never).execute();
        expect(await q()).toEqual([{ id: 'k', a: 'x' }]);
        // Another connection (another server's migration) adds a column: the kept plan's rows change shape.
        await sql`alter table prep_shape add column b text default 'y'`.execute(db);
        expect(await q()).toEqual([{ id: 'k', a: 'x', b: 'y' }]);
        expect(await q()).toEqual([{ id: 'k', a: 'x', b: 'y' }]);
      });
    } finally {
      await sql`drop table prep_shape`.execute(db);
    }
  });

  it('a failing prepared statement leaves it usable: the same insert fails, then succeeds with other values', async () => {
    const ins = (nonce: string) => db.insertInto('sign_in_nonce').values({ nonce, address: 'a', message: 'm', expires_at: 1, used_at: null, created_at: 'now' }).execute();
    await ins('n-prep-1');
    const err = await ins('n-prep-1').then(() => null, (e: unknown) => e);
    expect(isUniqueViolation(err, 'sign_in_nonce')).toBe(true);
    await ins('n-prep-2');
    const rows = await db.selectFrom('sign_in_nonce').select('nonce').where('nonce', 'in', ['n-prep-1', 'n-prep-2']).orderBy('nonce').execute();
    expect(rows.map((r) => r.nonce)).toEqual(['n-prep-1', 'n-prep-2']);
  });
});

describe('DATABASE_URL', () => {
  it('must be a postgres URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }).database).toEqual({ kind: 'postgres', url: 'postgresql://u@h/db' });
    expect(loadConfig({}).database.kind).toBe('sqlite');
  });

  it('an unreachable server stops the start with a clear error that does not print the password', async () => {
    const e = await openDatabase({ kind: 'postgres', url: 'postgres://attesta:s3cret@127.0.0.1:1/attesta' }).then(() => null, (x: Error) => x);
    expect(e?.message).toMatch(/^Could not open the PostgreSQL database at postgres:\/\/attesta:\*\*\*@127\.0\.0\.1:1\/attesta: /);
    expect(e?.message).not.toContain('s3cret');
  });
});

describe.runIf(testDbKind() === 'sqlite')('SQLite: one connection, held by an open transaction', () => {
  const chainMeta = (key: string) => db.selectFrom('chain_meta').select('value').where('key', '=', key).executeTakeFirst();

  it('a query through the database handle inside a transaction fails at once, saying what to fix, instead of freezing the server', async () => {
    const inside = db.transaction().execute(async (trx) => {
      await trx.insertInto('chain_meta').values({ key: 'guard-a', value: '1' }).execute();
      await chainMeta('guard-a'); // the mistake: db, not trx — before the guard this waited forever
    });
    await expect(inside).rejects.toThrow(QUERY_OUTSIDE_TRANSACTION);
    expect(await chainMeta('guard-a')).toBeUndefined(); // rolled back, nothing half-written
    // The connection is free again: the server goes on.
    await db.insertInto('chain_meta').values({ key: 'guard-b', value: '2' }).execute();
    expect(await chainMeta('guard-b')).toEqual({ value: '2' });
  });

  it('work the transaction starts and does not await waits its turn when detached, and runs after the commit', async () => {
    let later: Promise<unknown> = Promise.resolve();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('chain_meta').values({ key: 'guard-c', value: '3' }).execute();
      later = detachedFromTransaction(() => db.updateTable('chain_meta').set({ value: '4' }).where('key', '=', 'guard-c').execute());
    });
    await later;
    expect(await chainMeta('guard-c')).toEqual({ value: '4' });
  });

  it('after the transaction ends, work it left running is outside it (a timer it set queries freely)', async () => {
    let timer: Promise<unknown> = Promise.resolve();
    await db.transaction().execute(async () => {
      timer = new Promise((resolve, reject) => setTimeout(() => chainMeta('guard-b').then(resolve, reject), 20));
    });
    await expect(timer).resolves.toEqual({ value: '2' });
  });
});

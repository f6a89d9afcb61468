// The verification queue serves holders in turn (red-team item 5: 12 noise images from one holder
// held another holder's verification for 20.5 s behind them, first come first served). Asserts the
// order of claims, never times: on the database of the project (SQLite, or PostgreSQL in the
// server-postgres project), the queue directly, then the worker end to end; and that the claim's
// queries are served by indexes as the table grows.
import fs from 'node:fs';
import { CompiledQuery, sql, type Kysely, type KyselyPlugin, type QueryId, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db';
import * as fairQueueMigration from '../src/db/migrations/2026-11-22T1400-fair-queue';
import { newId } from '../src/lib/ids';
import { VerificationQueue } from '../src/services/verification/queue';
import { VerificationWorker } from '../src/services/verification/worker';
import { certForm, makeClient, makePdf, signIn, startTestServer, testConfig, tmpDataDir, waitFor } from './helpers';
import { testDbKind } from './pg/database';

const dirs: string[] = [];
let db: Db;
beforeAll(async () => {
  const dir = tmpDataDir();
  dirs.push(dir);
  ({ db } = await openDatabase((await testConfig(dir)).database));
});
afterAll(async () => {
  await db?.destroy();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A holder (user row) with `n` certificates; returns the holder id and the certificate ids in order. */
async function holderWith(n: number, name: string): Promise<{ holder: string; certs: string[] }> {
  const holder = newId(`u_${name}_`);
  const now = new Date().toISOString();
  await db.insertInto('user').values({ id: holder, wallet_address: holder, full_name: name, email: null, profile_image_key: null, profile_image_url: null, created_at: now, updated_at: now }).execute();
  const certs: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = newId('c_');
    certs.push(id);
    await db
      .insertInto('certificate')
      .values({
        id, user_id: holder, title: 't', institution_name: 'i', program_name: 'p', issue_date: '2024-01-01', verification_status: 'pending', verification_details: null,
        tier: 'none', file_key: id, file_name: 'f.pdf', file_mime: 'application/pdf', file_size: 1, sha256: newId('h_', 62), original_sha256: null, original_mime: null,
        record_address: id, holder_wallet: holder, anchor_signature: null, verify_signature: null, arweave_url: null, nft_mint_address: null, mint_signature: null, created_at: now, updated_at: now,
      } as never)
      .execute();
  }
  return { holder, certs };
}

/**
 * Queues the certificates' jobs, arrived one millisecond apart in the order given (a loop enqueues
 * several within one millisecond, where arrival order is a tie; jobs of one holder are taken oldest first).
 */
async function enqueueAll(q: VerificationQueue, certs: string[]) {
  const t0 = Date.now() - 10_000;
  for (const [i, c] of certs.entries()) {
    const job = await q.enqueue(c);
    await db.updateTable('verification_job').set({ run_after: t0 + i }).where('id', '=', job.id).execute();
  }
}

/** Nothing else in the queue: each test starts from an idle queue (earlier tests' jobs are done). */
const drain = () => db.updateTable('verification_job').set({ status: 'done', locked_until: null }).where('status', 'in', ['queued', 'running']).execute();
const finish = (jobId: string) => db.updateTable('verification_job').set({ status: 'done', locked_until: null }).where('id', '=', jobId).execute();

describe(`fair verification queue (${testDbKind()})`, () => {
  it("holder A queues 12 jobs, then holder B 1: one worker finishing each job serves B's second, then the rest of A's", async () => {
    await drain();
    const a = await holderWith(12, 'a');
    const b = await holderWith(1, 'b');
    const q = new VerificationQueue(db);
    await enqueueAll(q, [...a.certs, b.certs[0]]);

    const order: string[] = [];
    // Later `now`s: each claim is served at its own instant (the holder served longest ago goes first).
    const t0 = Date.now() + 1000;
    for (let i = 0; ; i++) {
      const job = await q.claim(t0 + i, { perHolder: 1 });
      if (!job) break;
      order.push(job.certificate_id);
      await finish(job.id);
    }
    expect(order).toEqual([a.certs[0], b.certs[0], ...a.certs.slice(1)]);
  });

  it('with two workers and one running job per holder, B is claimed at once while A waits for its own', async () => {
    await drain();
    const a = await holderWith(12, 'a');
    const b = await holderWith(1, 'b');
    const q = new VerificationQueue(db);
    await enqueueAll(q, [...a.certs, b.certs[0]]);

    const first = await q.claim(Date.now(), { perHolder: 1 });
    const second = await q.claim(Date.now(), { perHolder: 1 });
    expect([first?.certificate_id, second?.certificate_id]).toEqual([a.certs[0], b.certs[0]]);
    // A is at its cap and B has nothing left: the queue has work, but none it may hand out.
    expect(await q.claim(Date.now(), { perHolder: 1 })).toBeNull();
    await finish(first!.id);
    expect((await q.claim(Date.now(), { perHolder: 1 }))?.certificate_id).toBe(a.certs[1]);
  });

  it('without a cap, the holder with the fewest running jobs goes first', async () => {
    await drain();
    const a = await holderWith(4, 'a');
    const b = await holderWith(2, 'b');
    const q = new VerificationQueue(db);
    await enqueueAll(q, [...a.certs, ...b.certs]);
    const order: string[] = [];
    for (let job = await q.claim(); job; job = await q.claim()) order.push(job.certificate_id);
    expect(order).toEqual([a.certs[0], b.certs[0], a.certs[1], b.certs[1], a.certs[2], a.certs[3]]);
  });

  it('three holders are served in turn, whatever order their jobs arrived in', async () => {
    await drain();
    const [a, b, c] = [await holderWith(3, 'a'), await holderWith(3, 'b'), await holderWith(3, 'c')];
    const q = new VerificationQueue(db);
    await enqueueAll(q, [...a.certs, ...b.certs, ...c.certs]);
    const order: string[] = [];
    const t0 = Date.now() + 1000;
    for (let i = 0; ; i++) {
      const job = await q.claim(t0 + i, { perHolder: 1 });
      if (!job) break;
      order.push(job.certificate_id);
      await finish(job.id);
    }
    expect(order).toEqual([a.certs[0], b.certs[0], c.certs[0], a.certs[1], b.certs[1], c.certs[1], a.certs[2], b.certs[2], c.certs[2]]);
  });

  it("the per-holder cap holds across servers claiming at once; a dead worker's job does not count", async () => {
    await drain();
    const a = await holderWith(12, 'a');
    const s1 = new VerificationQueue(db, {}, 'server-1');
    const s2 = new VerificationQueue(db, {}, 'server-2');
    for (const c of a.certs) await s1.enqueue(c);

    // Eight claims racing on two "servers", cap 2: never more than two of A's jobs run. A claim that
    // meets another claiming for the same holder skips that holder this time (queue.ts), so how many of
    // the racers get one depends on timing (one or two); claims after the race bring it to exactly two.
    const claims = await Promise.all([s1, s2, s1, s2, s1, s2, s1, s2].map((q) => q.claim(Date.now(), { perHolder: 2 })));
    const got: (typeof claims)[number][] = claims.filter((j) => j !== null);
    expect(got.length).toBeGreaterThanOrEqual(1);
    expect(got.length).toBeLessThanOrEqual(2);
    if (got.length < 2) got.push(await s2.claim(Date.now(), { perHolder: 2 }));
    expect(got.every((j) => j !== null)).toBe(true);
    expect(new Set(got.map((j) => j!.certificate_id)).size).toBe(2);
    expect(await s1.claim(Date.now(), { perHolder: 2 })).toBeNull();

    // One of them finishes: exactly one more.
    await finish(got[0]!.id);
    const more = await Promise.all([s1, s2, s1, s2].map((q) => q.claim(Date.now(), { perHolder: 2 })));
    expect(more.filter((j) => j !== null)).toHaveLength(1);

    // Past the lease, a running job is its dead worker's: no longer counted, and claimable again.
    const later = Date.now() + 61_000;
    const reclaimed = [await s2.claim(later, { perHolder: 2 }), await s2.claim(later, { perHolder: 2 })];
    expect(reclaimed.map((j) => j?.attempts)).toEqual([2, 2]);
  });

  it("the migration gives jobs queued before it their certificate's holder", async () => {
    await drain();
    const a = await holderWith(1, 'legacy');
    await fairQueueMigration.down(db);
    try {
      const now = new Date().toISOString();
      // The table as it was before the migration (no holder_id, claimed_at).
      await (db as unknown as Kysely<any>)
        .insertInto('verification_job')
        .values({ id: 'j_legacy', certificate_id: a.certs[0], status: 'queued', attempts: 0, run_after: Date.now(), locked_until: null, locked_by: null, last_error: null, created_at: now, updated_at: now })
        .execute();
    } finally {
      await fairQueueMigration.up(db);
    }
    const row = await db.selectFrom('verification_job').select(['holder_id', 'claimed_at']).where('id', '=', 'j_legacy').executeTakeFirstOrThrow();
    expect(row).toEqual({ holder_id: a.holder, claimed_at: null });
    expect((await new VerificationQueue(db).claim(Date.now(), { perHolder: 1 }))?.id).toBe('j_legacy');
  });

  it('jobs carry their holder (also through enqueue of an existing certificate)', async () => {
    await drain();
    const a = await holderWith(1, 'a');
    const job = await new VerificationQueue(db).enqueue(a.certs[0]);
    expect(job.holder_id).toBe(a.holder);
    const row = await db.selectFrom('verification_job').select(['holder_id', 'claimed_at']).where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ holder_id: a.holder, claimed_at: null });
  });

  it("the claim's queries use indexes, not scans of the job table, with thousands of finished jobs", async () => {
    await drain();
    // A day's history: 30 holders × 100 finished jobs, then four queued jobs of each of three holders.
    const holders: { holder: string; certs: string[] }[] = [];
    for (let h = 0; h < 30; h++) holders.push(await holderWith(10, `h${h}`));
    const finished = [];
    const past = Date.now() - 3_600_000;
    for (let i = 0; i < 3000; i++) {
      const h = holders[i % holders.length];
      finished.push({
        id: newId('j_'), certificate_id: h.certs[i % 10], status: 'done' as const, attempts: 1, run_after: past + i, locked_until: null, locked_by: null,
        holder_id: h.holder, claimed_at: past + i, last_error: null, created_at: new Date(past).toISOString(), updated_at: new Date(past).toISOString(),
      });
    }
    for (let i = 0; i < finished.length; i += 500) await db.insertInto('verification_job').values(finished.slice(i, i + 500)).execute();
    const q = new VerificationQueue(db);
    await enqueueAll(q, holders.slice(0, 3).flatMap((h) => h.certs.slice(0, 4)));
    await sql`analyze`.execute(db);

    const seen: { node: RootOperationNode; queryId: QueryId }[] = [];
    const recorder: KyselyPlugin = { transformQuery: (args) => (seen.push(args), args.node), transformResult: async (args) => args.result };
    const spy = db.withPlugin(recorder) as Db;
    const job = await new VerificationQueue(spy).claim(Date.now(), { perHolder: 1 });
    expect(job?.certificate_id).toBe(holders[0].certs[0]);

    const selects = seen
      .map(({ node, queryId }) => spy.getExecutor().compileQuery(node, queryId))
      .filter((c) => /^select/i.test(c.sql) && /verification_job/.test(c.sql) && !/advisory/.test(c.sql));
    expect(selects.length).toBeGreaterThanOrEqual(2); // the holder to serve, then its job
    for (const c of selects) {
      if (testDbKind() === 'postgres') {
        const plan = (await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${c.sql}`, [...c.parameters]))).rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan, c.sql).not.toMatch(/Seq Scan on verification_job/);
        expect(plan, c.sql).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
      } else {
        const plan = (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${c.sql}`, [...c.parameters]))).rows.map((r) => r.detail).join(' | ');
        // Aliases of the job table in the claim's subqueries: r (running count), s (last served).
        expect(plan, c.sql).not.toMatch(/(^|\| )SCAN (verification_job|r|s)\b/);
        expect(plan, c.sql).toMatch(/SEARCH (verification_job|r|s) USING (COVERING )?INDEX verification_job_/);
      }
    }
  });
});

describe(`fair verification, end to end (${testDbKind()})`, () => {
  it("the worker takes B's certificate while A's six are verified one at a time", async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    // Worker off at start: every job is queued before the worker begins, so the order is decided by the queue alone.
    const server = await startTestServer(dir, { ATTESTA_WORKER: 'false' });
    const claims = { title: 'Certificate of Completion', institution_name: 'Fairness Institute', program_name: 'Queueing', issue_date: '2025-03-01' };
    const pdf = () => makePdf([claims.institution_name, claims.title, claims.program_name]);
    let worker: VerificationWorker | undefined;
    try {
      const a = makeClient(server.url);
      const b = makeClient(server.url);
      await signIn(a);
      await signIn(b);
      const aIds: string[] = [];
      for (let i = 0; i < 6; i++) aIds.push((await a.client.certificate.create.mutate(certForm(claims, { bytes: await pdf(), name: `a${i}.pdf` }))).id);
      const bId = (await b.client.certificate.create.mutate(certForm(claims, { bytes: await pdf(), name: 'b.pdf' }))).id;

      // Every claim in order, and how many of A's jobs were running just after it.
      const svc = server.services;
      const order: string[] = [];
      const aRunning: number[] = [];
      const claim = svc.queue.claim.bind(svc.queue);
      svc.queue.claim = (async (...args: Parameters<typeof claim>) => {
        const job = await claim(...args);
        if (job) {
          order.push(job.certificate_id);
          const r = await svc.db.selectFrom('verification_job').select((eb) => eb.fn.countAll<number>().as('n')).where('certificate_id', 'in', aIds).where('status', '=', 'running').executeTakeFirstOrThrow();
          aRunning.push(Number(r.n));
        }
        return job;
      }) as typeof svc.queue.claim;
      expect(svc.config.limits.verificationJobsPerHolder).toBe(1); // the default
      worker = new VerificationWorker(svc, 2, 50);
      await worker.start();

      await waitFor(async () => {
        const rows = await svc.db.selectFrom('certificate').select('verification_status').where('id', 'in', [...aIds, bId]).execute();
        return rows.every((r) => r.verification_status === 'verified');
      }, 120_000);
      // The two loops start together: A's oldest and B's are the first two claims (in either order,
      // the loops race), then A's other five one by one, never two of A's at once.
      expect(new Set(order.slice(0, 2))).toEqual(new Set([aIds[0], bId]));
      expect(order.slice(2)).toEqual(aIds.slice(1));
      expect(Math.max(...aRunning)).toBe(1);
    } finally {
      await worker?.stop();
      await server.close();
    }
  });
});

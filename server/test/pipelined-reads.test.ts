import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, openPointReads } from '../src/db';
import { PIPELINED_MAX_IN_FLIGHT, PipelinedReads } from '../src/db/postgres';
import { testConfig, tmpDataDir } from './helpers';
import { testDbKind } from './pg/database';

// The verdict store's lookups on PostgreSQL run on one pipelined connection (db/postgres.ts,
// PipelinedReads), on the pool whenever that connection cannot take them. Against the suite's real
// PostgreSQL: what they answer, on how many connections and in how many writes, and every way the
// pipelined connection can fail — each read still answered, from the pool.

const ECHO = 'select $1::text as v, pg_backend_pid() as pid';
const SLOW_ECHO = 'select $1::text as v, pg_backend_pid() as pid from pg_sleep(0.3)';
type Echo = { v: string; pid: number };

describe.runIf(testDbKind() === 'postgres')('PostgreSQL point reads on one pipelined connection', () => {
  let dir: string;
  let url: string;
  let config: Awaited<ReturnType<typeof testConfig>>;
  let pool: pg.Pool;
  let pooled = 0;
  /** The pool's answer to the same read (what a read falls back to), counted. */
  const onPool = (text: string, values: unknown[]) => async () => {
    pooled++;
    return (await pool.query(text, values)).rows as Echo[];
  };
  const read = (reads: PipelinedReads, text: string, v: string) => reads.rows<Echo>(text, [v], onPool(text, [v]));
  const pidsOf = async (pids: number[]) =>
    (await pool.query('select pid from pg_stat_activity where pid = any($1::int[])', [pids])).rows.map((r: { pid: number }) => r.pid);
  /** The server's connections to this test's database (the test's own pool has no application name). */
  const serverConnections = async () =>
    Number((await pool.query(`select count(*) as n from pg_stat_activity where datname = current_database() and application_name = 'attesta'`)).rows[0].n);
  /** Runs `use` on `reads`, and closes them whatever it throws. */
  const withReads = async (reads: PipelinedReads, use: (reads: PipelinedReads) => Promise<void>) => {
    try {
      await use(reads);
    } finally {
      await reads.close();
    }
  };
  const until = async (done: () => Promise<boolean> | boolean) => {
    for (let i = 0; i < 250 && !(await done()); i++) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    dir = tmpDataDir();
    config = await testConfig(dir);
    if (config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    url = config.database.url;
    pool = new pg.Pool({ connectionString: url, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads asked together each get their own rows, on one connection, sent in one write', async () => {
    await withReads(new PipelinedReads(url), async (reads) => {
      expect(await reads.open()).toBe(true);
      const first = await read(reads, ECHO, 'first');
      // The socket node-postgres writes to (not its public API: what holdWrites relies on).
      type Writes = { _writev: (...a: unknown[]) => void; _write: (...a: unknown[]) => void };
      const stream = (reads as unknown as { client: { connection: { stream: Writes } } }).client.connection.stream;
      const writev = vi.spyOn(stream, '_writev');
      const write = vi.spyOn(stream, '_write');
      pooled = 0;
      // As many as may wait on it (the default bound); the bound itself is tested below.
      const values = Array.from({ length: PIPELINED_MAX_IN_FLIGHT }, (_, i) => `v${i}`);
      const rows = await Promise.all(values.map((v) => read(reads, ECHO, v)));
      expect(rows.map((r) => r[0].v)).toEqual(values);
      expect(new Set(rows.map((r) => r[0].pid))).toEqual(new Set([first[0].pid]));
      expect(pooled).toBe(0);
      expect(reads.opened).toBe(1);
      // The reads of one turn went out together (cork until setImmediate): one write.
      expect(writev.mock.calls.length + write.mock.calls.length).toBe(1);
    });
  });

  it('reads that fail in the middle of a pipeline: every read still gets its own rows, the failed ones from the pool', async () => {
    await withReads(new PipelinedReads(url, { retryMs: 0 }), async (reads) => {
      expect(await reads.open()).toBe(true);
      const [{ pid }] = await read(reads, ECHO, 'open');
      pooled = 0;
      // Fails (division by zero) on the pipelined connection for 'b' and 'd' only; anywhere else it answers.
      const failsThere = `select $1::text as v, pg_backend_pid() as pid where 1 / (case when pg_backend_pid() = ${pid} and $1::text in ('b', 'd') then 0 else 1 end) = 1`;
      const values = ['a', 'b', 'c', 'd', 'e'];
      const rows = await Promise.all(values.map((v) => read(reads, failsThere, v)));
      expect(rows.map((r) => r.map((x) => x.v))).toEqual(values.map((v) => [v]));
      const fromPool = values.filter((_, i) => rows[i][0].pid !== pid);
      expect(fromPool).toEqual(expect.arrayContaining(['b', 'd']));
      expect(pooled).toBe(fromPool.length);
    });
  });

  it('a read never waits for the connection to open: the pool answers it, and the connection opens meanwhile', async () => {
    await withReads(new PipelinedReads(url), async (reads) => {
      pooled = 0;
      const [r] = await read(reads, ECHO, 'cold');
      expect(r.v).toBe('cold');
      expect(pooled).toBe(1);
      await until(() => reads.opened === 1);
      expect(reads.opened).toBe(1);
      await read(reads, ECHO, 'warm');
      expect(pooled).toBe(1);
    });
  });

  it('its connection killed while reads wait on it: those and the next are answered from the pool, and a new connection opens after the pause', async () => {
    await withReads(new PipelinedReads(url, { retryMs: 1000 }), async (reads) => {
      expect(await reads.open()).toBe(true);
      const [{ pid }] = await read(reads, ECHO, 'before');
      pooled = 0;
      // Slow on the pipelined connection only (its backend's pid), at once on the pool's.
      const slowThere = `select $1::text as v, pg_backend_pid() as pid from pg_sleep(case when pg_backend_pid() = ${pid} then 1 else 0 end)`;
      const waiting = Promise.all(['a', 'b', 'c'].map((v) => read(reads, slowThere, v)));
      // Killed once the first of them is running (the others wait behind it on the same connection).
      const running = () => pool.query(`select 1 from pg_stat_activity where pid = $1 and state = 'active' and query like '%pg_sleep(case%'`, [pid]);
      await until(async () => !!(await running()).rowCount);
      await pool.query('select pg_terminate_backend($1)', [pid]);
      expect((await waiting).map((r) => r[0].v)).toEqual(['a', 'b', 'c']);
      expect(pooled).toBe(3);
      // Within the pause: the pool, without trying another connection.
      expect((await read(reads, ECHO, 'during'))[0].v).toBe('during');
      expect(pooled).toBe(4);
      expect(reads.opened).toBe(1);
      await new Promise((r) => setTimeout(r, 1050));
      // After it: this read from the pool, which opens a new connection for the next.
      expect((await read(reads, ECHO, 'after'))[0].v).toBe('after');
      await until(() => reads.opened === 2);
      const [next] = await read(reads, ECHO, 'next');
      expect(next.v).toBe('next');
      expect(next.pid).not.toBe(pid);
      expect(pooled).toBe(5);
      expect(reads.opened).toBe(2);
    });
  });

  it('a server that hangs up: reads go to the pool, and it is tried again only after the pause', async () => {
    // A peer that accepts and hangs up at once, counting the attempts.
    let attempts = 0;
    const peer = net.createServer((s) => {
      attempts++;
      s.destroy();
    });
    await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
    const port = (peer.address() as net.AddressInfo).port;
    // A pause far longer than the reads below take, however loaded the machine.
    const reads = new PipelinedReads(`postgres://postgres@127.0.0.1:${port}/nowhere`, { retryMs: 3000 });
    try {
      pooled = 0;
      expect(await reads.open()).toBe(false);
      expect(attempts).toBe(1);
      for (let i = 0; i < 10; i++) expect((await read(reads, ECHO, `z${i}`))[0].v).toBe(`z${i}`);
      expect(pooled).toBe(10);
      expect(attempts).toBe(1);
      await new Promise((r) => setTimeout(r, 3050));
      expect((await read(reads, ECHO, 'again'))[0].v).toBe('again');
      await until(() => attempts === 2);
      expect(attempts).toBe(2);
      expect(reads.opened).toBe(0);
    } finally {
      await reads.close();
      await new Promise((r) => peer.close(r));
    }
  });

  it('a server that accepts and never answers: reads go to the pool at once, and the attempt is given up on', async () => {
    const sockets: net.Socket[] = [];
    const hungUp = new Set<net.Socket>();
    const peer = net.createServer((s) => {
      sockets.push(s);
      s.on('end', () => hungUp.add(s)).resume(); // reads what it is sent, answers nothing
    });
    await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
    const port = (peer.address() as net.AddressInfo).port;
    const reads = new PipelinedReads(`postgres://postgres@127.0.0.1:${port}/nowhere`, { connectTimeoutMs: 300 });
    try {
      pooled = 0;
      const attempt = reads.open();
      // While it hangs, reads do not wait for it.
      for (let i = 0; i < 5; i++) expect((await read(reads, ECHO, `h${i}`))[0].v).toBe(`h${i}`);
      expect(pooled).toBe(5);
      expect(await attempt).toBe(false);
      // The attempt's socket was closed by our side, not left open.
      await until(() => hungUp.size === 1);
      expect(sockets.length).toBe(1);
      expect(hungUp.size).toBe(1);
    } finally {
      await reads.close();
      for (const s of sockets) s.destroy();
      await new Promise((r) => peer.close(r));
    }
  });

  it('reads beyond the bound waiting on the connection go to the pool', async () => {
    await withReads(new PipelinedReads(url, { maxInFlight: 3 }), async (reads) => {
      expect(await reads.open()).toBe(true);
      pooled = 0;
      const values = Array.from({ length: 10 }, (_, i) => `s${i}`);
      const rows = await Promise.all(values.map((v) => read(reads, SLOW_ECHO, v)));
      expect(rows.map((r) => r[0].v)).toEqual(values);
      expect(pooled).toBe(7);
    });
  });

  it('a kept plan refused after another server migrates the table: answered from the pool, in its new shape', async () => {
    await pool.query('create table pipe_shape (id text primary key, a text)');
    await pool.query(`insert into pipe_shape values ('k', 'x')`);
    const reads = new PipelinedReads(url, { retryMs: 0 });
    const text = 'select * from pipe_shape where id = $1';
    const q = () => reads.rows<Record<string, string>>(text, ['k'], async () => (pooled++, (await pool.query(text, ['k'])).rows));
    try {
      expect(await reads.open()).toBe(true);
      pooled = 0;
      expect(await q()).toEqual([{ id: 'k', a: 'x' }]);
      expect(pooled).toBe(0);
      await pool.query(`alter table pipe_shape add column b text default 'y'`);
      expect(await q()).toEqual([{ id: 'k', a: 'x', b: 'y' }]);
      expect(pooled).toBe(1);
      // A new connection plans it afresh.
      expect(await reads.open()).toBe(true);
      expect(await q()).toEqual([{ id: 'k', a: 'x', b: 'y' }]);
      expect(pooled).toBe(1);
      expect(reads.opened).toBe(2);
    } finally {
      await reads.close();
      await pool.query('drop table pipe_shape');
    }
  });

  it('closed: its connection is gone, and reads after it go to the pool', async () => {
    const reads = new PipelinedReads(url);
    expect(await reads.open()).toBe(true);
    const [{ pid }] = await read(reads, ECHO, 'open');
    await reads.close();
    await until(async () => (await pidsOf([pid])).length === 0);
    expect(await pidsOf([pid])).toEqual([]);
    pooled = 0;
    expect((await read(reads, ECHO, 'after'))[0].v).toBe('after');
    expect(pooled).toBe(1);
    expect(reads.opened).toBe(1);
  });

  it("the server's point reads: closed before the first read, or while their connection opens, they leave nothing connected", async () => {
    if (config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const lookup = sql<{ v: string }>`select ${'x'}::text as v`;
    for (const when of ['before the first read', 'while opening'] as const) {
      const { db } = await openDatabase(config.database);
      const reads = openPointReads(db, config.database);
      const q = lookup.compile(db);
      if (when === 'while opening') expect(await reads.rows(q)).toEqual([{ v: 'x' }]); // starts opening
      await reads.close();
      expect(await reads.rows(q)).toEqual([{ v: 'x' }]);
      await db.destroy();
      await until(async () => (await serverConnections()) === 0);
      expect(await serverConnections(), when).toBe(0);
    }
  });
});

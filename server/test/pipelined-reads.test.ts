import fs from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

  beforeAll(async () => {
    dir = tmpDataDir();
    const config = await testConfig(dir);
    if (config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    url = config.database.url;
    pool = new pg.Pool({ connectionString: url, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads asked together each get their own rows, on one connection, sent in one write', async () => {
    const reads = new PipelinedReads(url);
    try {
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
    } finally {
      await reads.close();
    }
  });

  it('its connection killed while reads wait on it: those and the next are answered from the pool, and a new connection opens after the pause', async () => {
    const reads = new PipelinedReads(url, { retryMs: 1000 });
    try {
      const [{ pid }] = await read(reads, ECHO, 'before');
      pooled = 0;
      // Slow on the pipelined connection only (its backend's pid), at once on the pool's.
      const slowThere = `select $1::text as v, pg_backend_pid() as pid from pg_sleep(case when pg_backend_pid() = ${pid} then 1 else 0 end)`;
      const waiting = Promise.all(['a', 'b', 'c'].map((v) => read(reads, slowThere, v)));
      // Killed once the first of them is running (the others wait behind it on the same connection).
      const running = () => pool.query(`select 1 from pg_stat_activity where pid = $1 and state = 'active' and query like '%pg_sleep(case%'`, [pid]);
      for (let i = 0; i < 250 && !(await running()).rowCount; i++) await new Promise((r) => setTimeout(r, 20));
      await pool.query('select pg_terminate_backend($1)', [pid]);
      expect((await waiting).map((r) => r[0].v)).toEqual(['a', 'b', 'c']);
      expect(pooled).toBe(3);
      // Within the pause: the pool, without trying another connection.
      expect((await read(reads, ECHO, 'during'))[0].v).toBe('during');
      expect(pooled).toBe(4);
      expect(reads.opened).toBe(1);
      await new Promise((r) => setTimeout(r, 1050));
      const [after] = await read(reads, ECHO, 'after');
      expect(after.v).toBe('after');
      expect(after.pid).not.toBe(pid);
      expect(pooled).toBe(4);
      expect(reads.opened).toBe(2);
    } finally {
      await reads.close();
    }
  });

  it('a server that cannot be reached: reads go to the pool, and it is tried again only after the pause', async () => {
    // A peer that accepts and hangs up at once, counting the attempts.
    let attempts = 0;
    const peer = net.createServer((s) => {
      attempts++;
      s.destroy();
    });
    await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
    const port = (peer.address() as net.AddressInfo).port;
    const reads = new PipelinedReads(`postgres://postgres@127.0.0.1:${port}/nowhere`, { retryMs: 300 });
    try {
      pooled = 0;
      const answers = await Promise.all(['x', 'y'].map((v) => read(reads, ECHO, v)));
      expect(answers.map((r) => r[0].v)).toEqual(['x', 'y']);
      for (let i = 0; i < 10; i++) expect((await read(reads, ECHO, `z${i}`))[0].v).toBe(`z${i}`);
      expect(pooled).toBe(12);
      expect(attempts).toBe(1);
      await new Promise((r) => setTimeout(r, 350));
      expect((await read(reads, ECHO, 'again'))[0].v).toBe('again');
      expect(attempts).toBe(2);
      expect(reads.opened).toBe(0);
    } finally {
      await reads.close();
      await new Promise((r) => peer.close(r));
    }
  });

  it('reads beyond the bound waiting on the connection go to the pool', async () => {
    const reads = new PipelinedReads(url, { maxInFlight: 3 });
    try {
      await read(reads, ECHO, 'open');
      pooled = 0;
      const values = Array.from({ length: 10 }, (_, i) => `s${i}`);
      const rows = await Promise.all(values.map((v) => read(reads, SLOW_ECHO, v)));
      expect(rows.map((r) => r[0].v)).toEqual(values);
      expect(pooled).toBe(7);
    } finally {
      await reads.close();
    }
  });

  it('a kept plan refused after another server migrates the table: answered from the pool, in its new shape', async () => {
    await pool.query('create table pipe_shape (id text primary key, a text)');
    await pool.query(`insert into pipe_shape values ('k', 'x')`);
    const reads = new PipelinedReads(url, { retryMs: 0 });
    const text = 'select * from pipe_shape where id = $1';
    const q = () => reads.rows<Record<string, string>>(text, ['k'], async () => (pooled++, (await pool.query(text, ['k'])).rows));
    try {
      expect(await q()).toEqual([{ id: 'k', a: 'x' }]);
      pooled = 0;
      await pool.query(`alter table pipe_shape add column b text default 'y'`);
      expect(await q()).toEqual([{ id: 'k', a: 'x', b: 'y' }]);
      expect(pooled).toBe(1);
      // A new connection plans it afresh.
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
    const [{ pid }] = await read(reads, ECHO, 'open');
    await reads.close();
    for (let i = 0; i < 50 && (await pidsOf([pid])).length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await pidsOf([pid])).toEqual([]);
    pooled = 0;
    expect((await read(reads, ECHO, 'after'))[0].v).toBe('after');
    expect(pooled).toBe(1);
    expect(reads.opened).toBe(1);
  });
});

import { createHash } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

// Which database the server tests run on: SQLite in the data dir (default) or, in the
// `server-postgres` vitest project (ATTESTA_TEST_DB=postgres), a PostgreSQL database of its own per
// data dir, so a restart of the same data dir finds the same data.

export const testDbKind = (): 'sqlite' | 'postgres' => (process.env.ATTESTA_TEST_DB === 'postgres' ? 'postgres' : 'sqlite');

/** Env entries for a server on `dataDir`: {} on SQLite, { DATABASE_URL } on PostgreSQL (created on first use). */
export async function testDatabaseEnv(dataDir: string): Promise<Record<string, string>> {
  if (testDbKind() !== 'postgres') return {};
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!exists.rowCount) await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}

import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

// The few places where SQLite and PostgreSQL differ, kept in one file. Everything else is Kysely's builder.

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export const isPostgres = (db: Kysely<any>) => dialectOf(db) === 'postgres';

/**
 * Column types for migrations. `bigint` is INTEGER affinity in SQLite (identical storage) and int8 in
 * PostgreSQL, where epoch-millisecond values overflow int4. Binary data is `blob` in SQLite, `bytea` in
 * PostgreSQL.
 */
export const int64 = 'bigint' as const;
export function binary(db: Kysely<any>): RawBuilder<unknown> {
  return isPostgres(db) ? sql`bytea` : sql`blob`;
}

/**
 * A unique-constraint violation on `table` (and `column`, when given), in either database's words:
 * SQLite: "UNIQUE constraint failed: certificate.sha256"; PostgreSQL: code 23505 with the table and
 * "Key (sha256)=(…) already exists." in the detail.
 */
export function isUniqueViolation(e: unknown, table?: string, column?: string): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { code?: string; message?: string; table?: string; detail?: string; constraint?: string };
  if (err.code === '23505') {
    if (table && err.table !== table) return false;
    if (column && !(err.detail ?? '').includes(`(${column})`) && !(err.constraint ?? '').includes(column)) return false;
    return true;
  }
  const m = /UNIQUE constraint failed: ([\w.,\s]+)/.exec(err.message ?? '');
  if (!m) return false;
  const cols = m[1].split(',').map((s) => s.trim());
  if (table && !cols.some((c) => c.startsWith(`${table}.`))) return false;
  if (column && table && !cols.includes(`${table}.${column}`)) return false;
  return true;
}

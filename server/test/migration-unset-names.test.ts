// Migration 2026-11-23T1100-unset-names (SQLite, and PostgreSQL in the server-postgres project): the
// placeholder name 'User' that sign-in used to give every new user reads as "no name yet", but only
// on rows the holder never saved; a real name, and a 'User' the holder saved themselves, stay.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db';
import { testConfig, tmpDataDir } from './helpers';
import { testDbKind } from './pg/database';

const BEFORE = '2026-11-23T1000-institutions';
const dirs: string[] = [];
const open: Db[] = [];
afterAll(async () => {
  for (const db of open) await db.destroy().catch(() => undefined);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe(`migration unset-names on existing users (${testDbKind()})`, () => {
  it("clears only the never-saved placeholder 'User'", async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    const target = (await testConfig(dir)).database;
    const old = (await openDatabase(target, { migrateTo: BEFORE })).db;
    open.push(old);
    const created = '2026-01-01T00:00:00.000Z';
    const user = (id: string, full_name: string, updated_at = created) => ({ id, wallet_address: `wallet-${id}`, full_name, email: null, profile_image_key: null, profile_image_url: null, created_at: created, updated_at });
    await old.insertInto('user').values([user('u_new', 'User'), user('u_saved', 'User', '2026-02-01T00:00:00.000Z'), user('u_named', 'Ada Lovelace')]).execute();
    await old.destroy();
    open.pop();

    const db = (await openDatabase(target)).db;
    open.push(db);
    expect(await db.selectFrom('user').select(['id', 'full_name']).orderBy('id').execute()).toEqual([
      { id: 'u_named', full_name: 'Ada Lovelace' },
      { id: 'u_new', full_name: '' },
      { id: 'u_saved', full_name: 'User' },
    ]);
  });
});

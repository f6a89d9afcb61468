// Migration 2026-11-24T0000-public-verdict (SQLite, and PostgreSQL in the server-postgres project):
// certificates that exist when it runs are marked for the verdict store to compute, and its triggers
// take a stored verdict away (and mark it) when a row it was made of changes — here without a chain or
// a server, on the tables alone. Migration 2026-11-25T0000-verdict-words: verdicts stored before it
// (without reason_text and the platform_verified note) are taken away and computed again. Migration
// 2026-11-28T0100-verdict-account-reads: a chain account's lamports changing takes nothing away. The
// store itself: verdict-store.test.ts.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db';
import type { NewCertificate } from '../src/db/schema';
import { testConfig, tmpDataDir } from './helpers';
import { testDbKind } from './pg/database';

const BEFORE = '2026-11-23T1100-unset-names';
const dirs: string[] = [];
const open: Db[] = [];
afterAll(async () => {
  for (const db of open) await db.destroy().catch(() => undefined);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const at = '2026-01-01T00:00:00.000Z';
const sha = (k: number) => k.toString(16).padStart(64, '0');
const certificate = (k: number): NewCertificate =>
  ({
    id: `c${k}`, user_id: 'u1', title: `Certificate ${k}`, institution_name: 'Loopback University', program_name: 'Studies', issue_date: '2025-01-01',
    verification_status: 'verified', verification_details: null, tier: 'platform_verified', file_key: `certificates/c${k}`, file_name: 'c.pdf',
    file_mime: 'application/pdf', file_size: 1000, sha256: sha(k), original_sha256: null, original_mime: null, record_address: `record${k}`,
    holder_wallet: 'wallet-u1', anchor_signature: null, verify_signature: null, arweave_url: null, nft_mint_address: null, mint_signature: null, created_at: at, updated_at: at,
  }) as NewCertificate;

const dirty = async (db: Db) => (await db.selectFrom('public_verdict_dirty').select('sha256').orderBy('sha256').execute()).map((r) => r.sha256);
const storedFor = async (db: Db) => (await db.selectFrom('public_verdict').select('sha256').orderBy('sha256').execute()).map((r) => r.sha256);

/** A stored verdict of certificate k, made of what the triggers match on. */
const stored = (k: number, o: { issuer?: string } = {}) => ({
  sha256: sha(k), body: '{}', stale_at: null, cert_id: `c${k}`, user_id: 'u1', record_address: `record${k}`,
  issuer_authority: o.issuer ?? null, issuer_address: o.issuer ? `issuer-account-${o.issuer}` : null, computed_at: at,
});

describe(`migration public-verdict (${testDbKind()})`, () => {
  it('marks the certificates that exist for the store, and its triggers take a verdict away when what it read changes', async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    const target = (await testConfig(dir)).database;
    const old = (await openDatabase(target, { migrateTo: BEFORE })).db;
    open.push(old);
    await old.insertInto('user').values({ id: 'u1', wallet_address: 'wallet-u1', full_name: 'Ada Lovelace', email: null, profile_image_key: null, profile_image_url: null, created_at: at, updated_at: at }).execute();
    await old.insertInto('certificate').values([certificate(1), certificate(2)]).execute();
    await old.destroy();
    open.pop();

    const db = (await openDatabase(target)).db;
    open.push(db);
    expect(await dirty(db)).toEqual([sha(1), sha(2)]);
    expect(await storedFor(db)).toEqual([]);

    // As if the store had computed them (and a third, naming an institution).
    const reset = async () => {
      await db.deleteFrom('public_verdict').execute();
      await db.deleteFrom('public_verdict_dirty').execute();
      await db.insertInto('public_verdict').values([stored(1), stored(2, { issuer: 'inst' })]).execute();
    };
    const changes: [string, () => Promise<unknown>, string[]][] = [
      ['a certificate row', () => db.updateTable('certificate').set({ title: 'Changed' }).where('id', '=', 'c1').execute(), [sha(1)]],
      ['a new row of the same file', () => db.updateTable('certificate').set({ verification_status: 'superseded' }).where('id', '=', 'c2').execute(), [sha(2)]],
      ["the holder's name", () => db.updateTable('user').set({ full_name: 'Ada King' }).where('id', '=', 'u1').execute(), [sha(1), sha(2)]],
      ["the holder's email (not on any verdict)", () => db.updateTable('user').set({ email: 'ada@example.org' }).where('id', '=', 'u1').execute(), []],
      ['a transaction of the certificate', () => db.insertInto('chain_transaction').values({ signature: 's1', slot: 1, status: 'success', kind: 'anchor_certificate', certificate_id: 'c2', logs: '[]', error: null, compute_units: null, created_at: at }).execute(), [sha(2)]],
      ['the record account', () => db.insertInto('chain_account').values({ pubkey: 'record1', owner: 'program', lamports: '1', data: Buffer.from([1]), executable: 0, rent_epoch: '0', updated_at: at }).execute(), [sha(1)]],
      ["the institution's account", () => db.insertInto('chain_account').values({ pubkey: 'issuer-account-inst', owner: 'program', lamports: '1', data: Buffer.from([2]), executable: 0, rent_epoch: '0', updated_at: at }).execute(), [sha(2)]],
      ["the institution's domain proof", () => db.insertInto('issuer_profile').values({ authority: 'inst', domain: 'inst.example', name: 'Inst', registered_at: at, proof_status: 'proven', proof_method: 'dns', proven_at: at, checked_at: at, findings: null }).execute(), [sha(2)]],
      ['an unrelated account', () => db.insertInto('chain_account').values({ pubkey: 'someone-else', owner: 'program', lamports: '1', data: Buffer.from([3]), executable: 0, rent_epoch: '0', updated_at: at }).execute(), []],
    ];
    for (const [what, change, forgotten] of changes) {
      await reset();
      await change();
      expect({ what, dirty: await dirty(db), stored: await storedFor(db) }).toEqual({ what, dirty: forgotten, stored: [sha(1), sha(2)].filter((s) => !forgotten.includes(s)) });
    }
  });
});

describe(`migration verdict-words (${testDbKind()})`, () => {
  it('takes away every verdict stored before it and marks its hash, and every certificate, to be computed again', async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    const target = (await testConfig(dir)).database;
    const old = (await openDatabase(target, { migrateTo: '2026-11-24T0000-public-verdict' })).db;
    open.push(old);
    await old.insertInto('user').values({ id: 'u1', wallet_address: 'wallet-u1', full_name: 'Ada Lovelace', email: null, profile_image_key: null, profile_image_url: null, created_at: at, updated_at: at }).execute();
    await old.insertInto('certificate').values([certificate(1), certificate(2), certificate(3)]).execute();
    // As the store left them: verdicts of certificates 1 and 2 stored, certificate 3 still dirty, and a
    // verdict stored for a hash whose certificate row is gone (9).
    await old.deleteFrom('public_verdict_dirty').where('sha256', '!=', sha(3)).execute();
    await old.insertInto('public_verdict').values([stored(1), stored(2, { issuer: 'inst' }), { ...stored(9), cert_id: null, user_id: null }]).execute();
    expect(await dirty(old)).toEqual([sha(3)]);
    await old.destroy();
    open.pop();

    const db = (await openDatabase(target)).db;
    open.push(db);
    expect(await storedFor(db)).toEqual([]);
    expect(await dirty(db)).toEqual([sha(1), sha(2), sha(3), sha(9)]);
  });
});

describe(`migration verdict-account-reads (${testDbKind()})`, () => {
  it('a chain account whose lamports (or timestamps) change leaves the verdicts that read it; a change of its owner or data, or its going, takes them away', async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    const target = (await testConfig(dir)).database;
    const db = (await openDatabase(target)).db;
    open.push(db);
    await db.insertInto('user').values({ id: 'u1', wallet_address: 'wallet-u1', full_name: 'Ada Lovelace', email: null, profile_image_key: null, profile_image_url: null, created_at: at, updated_at: at }).execute();
    await db.insertInto('certificate').values([certificate(1), certificate(2)]).execute();
    const account = (pubkey: string, o: { lamports?: string; data?: number[]; owner?: string } = {}) => ({
      pubkey, owner: o.owner ?? 'program', lamports: o.lamports ?? '1000', data: Buffer.from(o.data ?? [1, 2, 3]), executable: 0, rent_epoch: '0', updated_at: at,
    });
    await db.insertInto('chain_account').values([account('record1'), account('issuer-account-inst')]).execute();
    const reset = async () => {
      await db.deleteFrom('public_verdict').execute();
      await db.deleteFrom('public_verdict_dirty').execute();
      await db.insertInto('public_verdict').values([stored(1), stored(2, { issuer: 'inst' })]).execute();
    };
    // As the embedded chain writes an account: insert, or on conflict every column (embedded.ts persistAccounts).
    const write = (row: ReturnType<typeof account>) =>
      db
        .insertInto('chain_account')
        .values(row)
        .onConflict((c) => c.column('pubkey').doUpdateSet((eb) => ({ owner: eb.ref('excluded.owner'), lamports: eb.ref('excluded.lamports'), data: eb.ref('excluded.data'), updated_at: eb.ref('excluded.updated_at') })))
        .execute();
    const changes: [string, () => Promise<unknown>, string[]][] = [
      ['lamports credited to the record (1 lamport)', () => write({ ...account('record1', { lamports: '1001' }), updated_at: '2026-02-01T00:00:00.000Z' }), []],
      ["lamports credited to the institution's account", () => write(account('issuer-account-inst', { lamports: '5000' })), []],
      ['the record rewritten as it is', () => write(account('record1', { lamports: '1001' })), []],
      ['an update of lamports alone', () => db.updateTable('chain_account').set({ lamports: '7' }).where('pubkey', '=', 'record1').execute(), []],
      ["the record's data", () => write(account('record1', { lamports: '1001', data: [1, 2, 4] })), [sha(1)]],
      ["the institution's data", () => db.updateTable('chain_account').set({ data: Buffer.from([9]) }).where('pubkey', '=', 'issuer-account-inst').execute(), [sha(2)]],
      ["the record's owner", () => write(account('record1', { lamports: '1001', data: [1, 2, 4], owner: 'another-program' })), [sha(1)]],
      ['the record going', () => db.deleteFrom('chain_account').where('pubkey', '=', 'record1').execute(), [sha(1)]],
      ['the record coming back', () => write(account('record1')), [sha(1)]],
    ];
    for (const [what, change, forgotten] of changes) {
      await reset();
      await change();
      expect({ what, dirty: await dirty(db), stored: await storedFor(db) }).toEqual({ what, dirty: forgotten, stored: [sha(1), sha(2)].filter((s) => !forgotten.includes(s)) });
    }
  });
});

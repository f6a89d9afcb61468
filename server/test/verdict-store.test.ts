// The stored public verdict (services/certificates/verdict-store.ts): a verify by hash served from one
// row must say exactly what computing it now says, whatever changed since it was stored — the holder's
// name, an institution's confirmation, its domain proof and approval, a revocation, the record's
// expiry — and a writer committing while the store computes must not leave the old verdict behind.
// Runs on SQLite and on PostgreSQL (the server-postgres project).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { Keypair, SystemProgram, type Connection } from '@solana/web3.js';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { IssuerStatus } from '../../shared/program/codec';
import { ReasonCode } from '../../shared/program/reasons';
import { confirmCertificateIx, requestConfirmationIx } from '../../shared/program/instructions';
import type { Server } from '../src/app';
import { isPostgres } from '../src/db';
import { chainPartOf, computeVerdict, verdictText } from '../src/services/certificates/verdict';
import { expiredVerdicts, withOrigin, type VerdictStore } from '../src/services/certificates/verdict-store';
import { up as upgradeVerdictWords } from '../src/db/migrations/2026-11-25T0000-verdict-words';
import { up as upgradeVerdictFlags } from '../src/db/migrations/2026-11-28T0200-verdict-flags-original-upload';
import { waitFor } from './helpers';
import { INSTITUTION, fund, holderWithCertificate, send, startWorld, type World } from './attack-support/world';

const programId = CERTIFICATES_PROGRAM_ID;
let server: Server;
let world: World;
let store: VerdictStore;
let conn: Connection;
const institution = Keypair.generate();

beforeAll(async () => {
  world = await startWorld(institution);
  ({ server, conn } = world);
  store = server.services.verdictStore!;
  // The test computes when it says so (the server's own loop would race the assertions on dirty rows).
  await store.stop();
}, 120_000);

afterAll(() => world?.close());

/** The verdict computed now from the live chain and database, as the store would serve it. */
async function fresh(sha256: string) {
  const { db, chain } = server.services;
  const { verdict } = await computeVerdict({ db, chainPart: (s, a) => chainPartOf({ db, chain }, s, a) }, { sha256, origin: server.url });
  return verdictText(verdict);
}

const stored = (sha256: string) => store.read(sha256, server.url);
const isDirty = async (sha256: string) => !!(await server.services.db.selectFrom('public_verdict_dirty').select('sha256').where('sha256', '=', sha256).executeTakeFirst());

/** Computes what is dirty, then: the stored verdict is there and is the one computed now, byte for byte. */
async function expectCurrent(sha256: string) {
  await store.settle();
  const s = await stored(sha256);
  expect(s).not.toBeNull();
  expect(s).toBe(await fresh(sha256));
  return JSON.parse(s!);
}

/** A change it was made of: the stored verdict is gone (in the writer's transaction) and its hash dirty. */
async function expectForgotten(sha256: string) {
  expect(await stored(sha256)).toBeNull();
  expect(await isDirty(sha256)).toBe(true);
}

describe('stored public verdicts', () => {
  it('are the verdict computed now, and every change they are made of takes them away until computed again', async () => {
    const { db, chain } = server.services;
    const h = await holderWithCertificate(server, 'Bachelor of Science');
    expect(h.row.verification_status).toBe('verified');
    const sha = h.row.sha256;
    // A platform-only check says whose check it is, and whose it is not.
    expect(await expectCurrent(sha)).toMatchObject({ valid: true, tier: 'platform_verified', note: `Checked by Attesta only, not confirmed by ${INSTITUTION}.`, reason: null, reason_text: null });

    // Served: GET /api/v1/verify/hash answers the stored verdict (with checked_at and the request's origin).
    const rest = await (await fetch(`${server.url}/api/v1/verify/hash/${sha}`)).text();
    expect(rest.replace(/,"checked_at":"[^"]+"\}$/, '}')).toBe(await stored(sha));
    expect(JSON.parse(rest).certificate.verification_url).toBe(`${server.url}/view/${h.user.id}/${h.id}`);

    // The holder's profile (name and photo are on the public certificate).
    await db.updateTable('user').set({ full_name: 'Alex Renamed' }).where('id', '=', h.user.id).execute();
    await expectForgotten(sha);
    await expectCurrent(sha);

    // The record: the holder asks the institution, the institution confirms on chain (through /rpc).
    await fund(conn, h.holder);
    await send(conn, h.holder, requestConfirmationIx(programId, { hash: h.hash, holder: h.holder.publicKey, issuerAuthority: institution.publicKey }));
    await expectForgotten(sha);
    expect((await expectCurrent(sha)).confirmation_requested_from.name).toBe(INSTITUTION);
    await send(conn, institution, confirmCertificateIx(programId, { hash: h.hash, authority: institution.publicKey }));
    await server.chainSync.idle();
    await expectForgotten(sha);
    const confirmed = await expectCurrent(sha);
    expect(confirmed).toMatchObject({ tier: 'issuer_confirmed', issuer: { name: INSTITUTION, domain_proven: false } });
    expect(confirmed.note).toMatch(/its domain is not proven at present/);

    // The institution's domain proof (a row of ours, not the chain's).
    await db
      .insertInto('issuer_profile')
      .values({ authority: institution.publicKey.toBase58(), domain: 'northfield.example', name: INSTITUTION, registered_at: new Date().toISOString(), proof_status: 'proven', proof_method: 'dns', proven_at: new Date().toISOString(), checked_at: null, findings: null })
      .execute();
    await expectForgotten(sha);
    expect((await expectCurrent(sha)).issuer).toMatchObject({ domain: 'northfield.example', domain_proven: true });

    // The institution's account: the operator suspends it.
    await chain.setIssuerStatus({ authority: institution.publicKey, status: IssuerStatus.Suspended }, { kind: 'set_issuer_status' });
    await expectForgotten(sha);
    const suspended = await expectCurrent(sha);
    expect(suspended.valid).toBe(false);
    expect(suspended.issuer.status).toBe('suspended');
    await chain.setIssuerStatus({ authority: institution.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
    await expectForgotten(sha);

    // A transaction sent for the certificate (the verdict lists them).
    await db
      .insertInto('chain_transaction')
      .values({ signature: `test-${Date.now()}`, slot: 1, status: 'success', kind: 'anchor_certificate', certificate_id: h.id, logs: '[]', error: null, compute_units: null, created_at: new Date().toISOString() })
      .execute();
    await expectForgotten(sha);
    await expectCurrent(sha);

    // The certificate row itself, with a title that holds the stored body's URL keys as text.
    await db.updateTable('certificate').set({ title: 'Evil "certificate_url":"/x", "verification_url":"/y' }).where('id', '=', h.id).execute();
    await expectForgotten(sha);
    const hostile = await expectCurrent(sha);
    expect(hostile.certificate.title).toBe('Evil "certificate_url":"/x", "verification_url":"/y');
    expect(hostile.certificate.verification_url).toBe(`${server.url}/view/${h.user.id}/${h.id}`);

    // A revocation by the operator.
    await chain.revokeCertificate({ hash: h.hash, reasonCode: ReasonCode.RevokedFraud }, { kind: 'revoke_certificate' });
    await server.chainSync.idle();
    await expectForgotten(sha);
    const revoked = await expectCurrent(sha);
    expect(revoked).toMatchObject({ valid: false, status: 'revoked', reason: 'revoked_fraud', reason_text: 'revoked as fraudulent', note: null });
  }, 120_000);

  it('verdicts stored before an upgrade that changed their words are computed again (migration 2026-11-25T0000-verdict-words)', async () => {
    const { db } = server.services;
    const h = await holderWithCertificate(server, 'Bachelor of Laws');
    const sha = h.row.sha256;
    const current = await expectCurrent(sha);
    expect(current.note).toBe(`Checked by Attesta only, not confirmed by ${INSTITUTION}.`);
    // As an older server stored it: no reason_text, no note at the platform_verified tier. Nothing it was
    // made of changes at an upgrade, so no trigger takes it away: it would be served as it is.
    const { reason_text: _, ...older } = current;
    const before = JSON.stringify({ ...older, note: null, certificate: { ...current.certificate, certificate_url: current.certificate.certificate_url.replace(server.url, ''), verification_url: current.certificate.verification_url.replace(server.url, '') } });
    await db.updateTable('public_verdict').set({ body: before }).where('sha256', '=', sha).execute();
    expect(JSON.parse((await stored(sha))!)).not.toHaveProperty('reason_text');
    // The migration takes it away and marks it; the store computes it again with the words.
    await upgradeVerdictWords(db);
    await expectForgotten(sha);
    expect(await expectCurrent(sha)).toMatchObject({ note: `Checked by Attesta only, not confirmed by ${INSTITUTION}.`, reason_text: null });
    expect(await db.selectFrom('public_verdict').select('sha256').where('sha256', '=', sha).executeTakeFirst()).toBeTruthy();
  }, 60_000);

  it('verdicts stored before flags, original uploads and the words of expiry were added are computed again (migration 2026-11-28T0200-verdict-flags-original-upload)', async () => {
    const { db } = server.services;
    const h = await holderWithCertificate(server, 'Bachelor of Music');
    const sha = h.row.sha256;
    const current = await expectCurrent(sha);
    expect(current).toMatchObject({ flags: [], original_sha256: null });
    // As an older server stored it: without the fields. Nothing it was made of changes at an upgrade.
    const { flags: _f, original_sha256: _o, ...older } = current;
    const before = JSON.stringify({ ...older, certificate: { ...current.certificate, certificate_url: current.certificate.certificate_url.replace(server.url, ''), verification_url: current.certificate.verification_url.replace(server.url, '') } });
    await db.updateTable('public_verdict').set({ body: before }).where('sha256', '=', sha).execute();
    expect(JSON.parse((await stored(sha))!)).not.toHaveProperty('flags');
    // The migration takes it away and marks it (run again here: it is idempotent); the store computes it again.
    await upgradeVerdictFlags(db);
    await expectForgotten(sha);
    expect(await expectCurrent(sha)).toMatchObject({ flags: [], original_sha256: null });
  }, 60_000);

  // A hash may be the SHA-256 of the image a holder uploaded (certificate.original_sha256): its stored
  // verdict is its certificate's, and the certificate's row is one of the things it is made of.
  it("an original upload's hash: stored as its certificate's verdict, and taken away with any change of that certificate", async () => {
    const { db } = server.services;
    const h = await holderWithCertificate(server, 'Master of Music');
    const original = createHash('sha256').update(`the image uploaded ${Math.random()}`).digest('hex');
    // As intake writes it for an image converted to PDF (the trigger marks the original hash too).
    await db.updateTable('certificate').set({ original_sha256: original }).where('id', '=', h.id).execute();
    expect(await isDirty(original)).toBe(true);
    const v = await expectCurrent(original);
    expect(v).toMatchObject({ status: 'verified', sha256: h.row.sha256, original_sha256: original, certificate: { id: h.id } });
    // Served: GET /api/v1/verify/hash answers the stored verdict of the original hash.
    const rest = await (await fetch(`${server.url}/api/v1/verify/hash/${original}`)).text();
    expect(rest.replace(/,"checked_at":"[^"]+"\}$/, '}')).toBe(await stored(original));
    // Any change of its certificate takes it away (the row is read through the original hash).
    await db.updateTable('certificate').set({ title: 'Master of Music (amended)' }).where('id', '=', h.id).execute();
    await expectForgotten(original);
    expect((await expectCurrent(original)).certificate.title).toBe('Master of Music (amended)');
    // Revoked (on chain and in its row, as the operator's revocation writes both): no longer verified, and
    // the original hash is no one's verdict any more.
    await server.services.chain.revokeCertificate({ hash: h.hash, reasonCode: ReasonCode.RevokedFraud }, { kind: 'revoke_certificate' });
    await server.chainSync.idle();
    await store.settle();
    await db.updateTable('certificate').set({ verification_status: 'revoked' }).where('id', '=', h.id).execute();
    await expectForgotten(original);
    expect(await expectCurrent(original)).toMatchObject({ status: 'not_found', original_sha256: null, certificate: null });
  }, 60_000);

  it('a record that expires is not served as it was once its expiry has passed, and is computed again', async () => {
    const { db, chain } = server.services;
    const hash = createHash('sha256').update(`expiring ${Math.random()}`).digest();
    const sha = hash.toString('hex');
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 2);
    await chain.anchorCertificate({ hash, holder: Keypair.generate().publicKey, expiresAt }, { kind: 'anchor_certificate' });
    await chain.recordVerification({ hash, verified: true, reasonCode: 0 }, { kind: 'record_verification' });
    await db.insertInto('public_verdict_dirty').values({ sha256: sha }).execute();
    expect(await expectCurrent(sha)).toMatchObject({ status: 'verified', expires_at: new Date(Number(expiresAt) * 1000).toISOString() });
    // Past the expiry nothing changed in the database; the stored verdict is not served…
    await waitFor(async () => (await stored(sha)) === null, 10_000, 200);
    // …and the store computes it again: expired from now on (no longer anything to wait for).
    const expired = await expectCurrent(sha);
    expect(expired).toMatchObject({ status: 'expired', valid: false });
    expect((await db.selectFrom('public_verdict').select('stale_at').where('sha256', '=', sha).executeTakeFirstOrThrow()).stale_at).toBeNull();
  }, 60_000);

  // The attack: anyone may name any account writable in a transaction of their own over /rpc. A
  // record named writable and left as it was kept being written back, and each write took its stored
  // verdict away (the triggers): ~30 records a transaction, fees from the faucet, every cold verify of
  // them computed live until the store caught up. Only what a transaction changed is written.
  it('a transaction that names a record writable and leaves it as it was takes nothing away', async () => {
    const { db, chain } = server.services;
    const h = await holderWithCertificate(server, 'Bachelor of Engineering');
    const sha = h.row.sha256;
    await expectCurrent(sha);
    const record = chain.certificateAddress(h.hash);
    const rowOf = () => db.selectFrom('chain_account').select(['lamports', 'data', 'updated_at']).where('pubkey', '=', record.toBase58()).executeTakeFirstOrThrow();
    const before = await rowOf();
    const stranger = Keypair.generate();
    await fund(conn, stranger);
    await send(conn, stranger, SystemProgram.transfer({ fromPubkey: stranger.publicKey, toPubkey: record, lamports: 0 }));
    await server.chainSync.idle();
    expect(await rowOf()).toEqual(before);
    expect(await isDirty(sha)).toBe(false);
    expect(await stored(sha)).toBe(await fresh(sha));
  }, 60_000);

  // The same attack, paying for it: a transfer of 1 lamport to twenty records really changes them (anyone
  // may credit any account), so they are written, and the triggers on chain_account took their stored
  // verdicts away. A verdict reads a record's owner and data, never its lamports: a change of lamports
  // alone leaves the stored verdict (the same row, computed at the same time); a change of its data
  // takes it away, as before.
  it('lamports sent to records (1 each, over /rpc) leave their stored verdicts; a change of the data takes them away', async () => {
    const { db, chain } = server.services;
    const certs = [await holderWithCertificate(server, 'Bachelor of Music'), await holderWithCertificate(server, 'Master of Music')];
    const shas = certs.map((c) => c.row.sha256);
    for (const sha of shas) await expectCurrent(sha);
    const storedRow = (sha: string) => db.selectFrom('public_verdict').select(['body', 'computed_at']).where('sha256', '=', sha).executeTakeFirst();
    const rowsBefore = await Promise.all(shas.map(storedRow));
    const records = certs.map((c) => chain.certificateAddress(c.hash));
    const lamportsOf = async (k: typeof records[number]) => (await db.selectFrom('chain_account').select('lamports').where('pubkey', '=', k.toBase58()).executeTakeFirstOrThrow()).lamports;
    const before = await Promise.all(records.map(lamportsOf));
    const stranger = Keypair.generate();
    await fund(conn, stranger);
    await send(conn, stranger, records.map((r) => SystemProgram.transfer({ fromPubkey: stranger.publicKey, toPubkey: r, lamports: 1 })));
    await server.chainSync.idle();
    // Really changed and written (lamports), and nothing a verdict reads: each stored verdict stays, as stored.
    expect(await Promise.all(records.map(lamportsOf))).toEqual(before.map((l) => String(BigInt(l) + 1n)));
    for (const sha of shas) expect(await isDirty(sha)).toBe(false);
    expect(await Promise.all(shas.map(storedRow))).toEqual(rowsBefore);
    for (const sha of shas) expect(await stored(sha)).toBe(await fresh(sha));

    // The holder asks the institution to confirm (over /rpc): the record's data changes, its verdict goes.
    const [h] = certs;
    await fund(conn, h.holder);
    await send(conn, h.holder, requestConfirmationIx(programId, { hash: h.hash, holder: h.holder.publicKey, issuerAuthority: institution.publicKey }));
    // The follower's writes (the request it records) are changes the verdict is made of too: computed
    // before they land, it was taken away again after (a CI run on PostgreSQL read null so).
    await server.chainSync.idle();
    await expectForgotten(h.row.sha256);
    expect((await expectCurrent(h.row.sha256)).confirmation_requested_from.name).toBe(INSTITUTION);
    // The other record was not touched: its verdict is still the one stored before.
    expect(await storedRow(shas[1])).toEqual(rowsBefore[1]);
  }, 90_000);

  // A revoked record stays revoked past its expiry: its verdict waits for nothing. With the expiry kept,
  // the store found it expired at every refresh from then on and computed it again, forever (and a
  // hundred such records kept it computing without pause, the oldest first, ahead of any other).
  it('a revoked record whose expiry passes is still served as stored, and not computed again', async () => {
    const { db, chain } = server.services;
    const hash = createHash('sha256').update(`revoked before expiring ${Math.random()}`).digest();
    const sha = hash.toString('hex');
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 2);
    await chain.anchorCertificate({ hash, holder: Keypair.generate().publicKey, expiresAt }, { kind: 'anchor_certificate' });
    await chain.recordVerification({ hash, verified: true, reasonCode: 0 }, { kind: 'record_verification' });
    await chain.revokeCertificate({ hash, reasonCode: ReasonCode.RevokedFraud }, { kind: 'revoke_certificate' });
    await db.insertInto('public_verdict_dirty').values({ sha256: sha }).onConflict((oc) => oc.doNothing()).execute();
    const revoked = await expectCurrent(sha);
    expect(revoked).toMatchObject({ status: 'revoked', valid: false, expires_at: new Date(Number(expiresAt) * 1000).toISOString() });
    expect((await db.selectFrom('public_verdict').select('stale_at').where('sha256', '=', sha).executeTakeFirstOrThrow()).stale_at).toBeNull();
    // Past the expiry: served as stored, nothing found expired, nothing computed.
    await waitFor(async () => Date.now() / 1000 > Number(expiresAt) + 1, 10_000, 200);
    expect(await stored(sha)).toBe(await fresh(sha));
    expect((await expiredVerdicts(db, Math.floor(Date.now() / 1000), 100).execute()).map((r) => r.sha256)).not.toContain(sha);
    expect(await store.refresh()).toBe(0);
  }, 60_000);

  // The attack: the store reads a certificate, a writer commits a change to it, the store writes what
  // it read. The trigger's delete ran before the store's insert, so nothing would take the old verdict
  // away. The store computes in one transaction that writers wait for and that waits for writers
  // (SQLite: the one connection; PostgreSQL: its table lock), so it reads the change or the change's
  // trigger deletes what it stored.
  it('a writer committing while the store computes never leaves the verdict it changed behind', async () => {
    const { db } = server.services;
    const h = await holderWithCertificate(server, 'Master of Arts');
    const sha = h.row.sha256;
    await expectCurrent(sha);
    await db.updateTable('certificate').set({ updated_at: new Date().toISOString() }).where('id', '=', h.id).execute();
    expect(await isDirty(sha)).toBe(true);

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let changed!: () => void;
    const written = new Promise<void>((r) => (changed = r));
    const writer = db.transaction().execute(async (trx) => {
      await trx.updateTable('certificate').set({ title: 'Master of Arts (amended)' }).where('id', '=', h.id).execute();
      changed();
      await gate; // the writer's transaction stays open while the store runs
    });
    await written;
    let refreshed = false;
    const refresh = store.refresh().finally(() => (refreshed = true));
    if (isPostgres(db)) {
      // Until the store waits for the writer's lock (or, without that lock, has already finished).
      const waiting = async () => (await sql<{ n: number }>`select count(*)::int as n from pg_locks where not granted`.execute(db)).rows[0].n > 0;
      await waitFor(async () => refreshed || (await waiting()), 10_000, 20);
    } else await new Promise((r) => setTimeout(r, 50));
    release();
    await writer;
    await refresh;
    const served = await stored(sha);
    // Either not stored (computed again next) or stored with the change: never the old title.
    if (served !== null) expect(JSON.parse(served).certificate.title).toBe('Master of Arts (amended)');
    expect((await expectCurrent(sha)).certificate.title).toBe('Master of Arts (amended)');
  }, 60_000);

  it('finds expired verdicts through the stale_at index, also in a prepared statement\'s generic plan', async () => {
    const { db } = server.services;
    const q = expiredVerdicts(db, 1_900_000_000, 100).compile();
    let plan: string;
    if (isPostgres(db)) {
      // The server keeps its PostgreSQL statements prepared: after five runs PostgreSQL may use a
      // generic plan, made without the parameter's value. Forced here, on one connection.
      plan = await db.connection().execute(async (c) => {
        await sql`set plan_cache_mode = force_generic_plan`.execute(c);
        await sql.raw(`prepare expired_plan_check(bigint, bigint) as ${q.sql}`).execute(c);
        try {
          const r = await sql.raw<{ 'QUERY PLAN': string }>('explain execute expired_plan_check(1900000000, 100)').execute(c);
          return r.rows.map((row) => row['QUERY PLAN']).join('\n');
        } finally {
          await sql`deallocate expired_plan_check`.execute(c);
          await sql`reset plan_cache_mode`.execute(c);
        }
      });
      expect(plan).toMatch(/Index Scan using public_verdict_stale_at_idx/);
    } else {
      const r = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]));
      plan = r.rows.map((row) => row.detail).join('\n');
      expect(plan).toMatch(/USING (COVERING )?INDEX public_verdict_stale_at_idx/);
    }
    expect(plan).not.toMatch(/Seq Scan|SCAN public_verdict\b(?! USING)/);
  });

  it('puts the request origin in front of the certificate URLs only, whatever the text around them', () => {
    const dto = (o: string) => ({ title: 'x "certificate_url":"/evil", "verification_url":"/evil"', certificate_url: `${o}/files/certificates/c1`, verification_url: `${o}/view/u1/c1` });
    const body = JSON.stringify({ valid: true, certificate: dto('') });
    expect(withOrigin(body, 'https://attesta.example')).toBe(JSON.stringify({ valid: true, certificate: dto('https://attesta.example') }));
    // A certificate not public (null URL) or no certificate: nothing to put in front.
    const none = JSON.stringify({ valid: false, certificate: null });
    expect(withOrigin(none, 'https://attesta.example')).toBe(none);
  });
});

// Attack: an approved institution that nobody asked "confirms" a stranger's certificate by sending
// issue_certificate over its record (the hash is public on chain) to the same holder, through /rpc, and
// may then revoke it as the institution that "issued" it. The program refuses it (RecordAlreadyNamesHolder);
// a supersede chain back to the holder never turns their earlier claim into a confirmation; and a server
// following a chain that still runs the older program says what such a landing is: not a confirmation
// the holder asked for. Each test is the attack; it fails while the hole is open.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, type Connection } from '@solana/web3.js';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { CertificateStatus, TrustTier } from '../../shared/program/codec';
import { confirmCertificateIx, issueCertificateIx, requestConfirmationIx, revokeCertificateIx } from '../../shared/program/instructions';
import { ReasonCode } from '../../shared/program/reasons';
import type { Server } from '../src/app';
import { reconcileCertificate } from '../src/services/chain-sync/reconcile';
import { certForm, makeClient, startTestServer, tmpDataDir } from './helpers';
import { INSTITUTION, approvedIssuer, fund, holderWithCertificate, rpcConnection, send, startWorld, type World } from './attack-support/world';

const programId = CERTIFICATES_PROGRAM_ID;
/** The program as deployed before RecordAlreadyNamesHolder (commit e945317, sha256 cbd5cc43…): a cluster not yet upgraded. */
const OLDER_PROGRAM = path.join(import.meta.dirname, 'fixtures/certificates-before-6054.so');

let world: World;
let server: Server;
let conn: Connection;
const institution = Keypair.generate(); // approved, and asked by nobody

beforeAll(async () => {
  world = await startWorld(institution, 'Attesta Demo University');
  ({ server, conn } = world);
}, 120_000);
afterAll(() => world?.close());

async function chainError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return String((e as { logs?: string[] }).logs?.join('\n') ?? (e as Error).message);
  }
  throw new Error('expected the transaction to fail');
}

/** Everything a holder and a verifier read about a certificate (verdict times left out). */
async function seen(s: Server, id: string, sha256: string) {
  const anon = makeClient(s.url).client;
  const without = <T extends { checked_at?: string }>(v: T) => ({ ...v, checked_at: undefined });
  return {
    row: await s.services.db.selectFrom('certificate').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    requests: await s.services.db.selectFrom('confirmation_request').selectAll().where('certificate_id', '=', id).execute(),
    byId: without(await anon.public.verifyById.query({ certificateId: id })),
    byHash: without(await anon.public.verifyByHash.query({ sha256 })),
    rest: without((await (await fetch(`${s.url}/api/v1/verify/hash/${sha256}`)).json()) as { checked_at?: string }),
  };
}

describe('attack: an institution nobody asked confirms a stranger\'s certificate by issuing it to the same holder', () => {
  it('over /rpc: refused with RecordAlreadyNamesHolder; the institution can neither confirm nor revoke it; no row, request or verdict changes', async () => {
    const h = await holderWithCertificate(server, 'Master of Science');
    expect(h.row).toMatchObject({ verification_status: 'verified', tier: 'platform_verified' });
    const sha256 = Buffer.from(h.hash).toString('hex');
    await server.chainSync.idle();
    const before = await seen(server, h.id, sha256);
    const record = await server.services.chain.readCertificate(h.hash);

    const issued = await chainError(send(conn, institution, issueCertificateIx(programId, { hash: h.hash, holder: h.holder.publicKey, authority: institution.publicKey, payer: institution.publicKey, expiresAt: 0n })));
    expect(issued).toContain('Error Code: RecordAlreadyNamesHolder. Error Number: 6054. Error Message: The record already names this holder: the holder asks the issuer (request_confirmation), then the issuer confirms (confirm_certificate).');
    expect(await chainError(send(conn, institution, revokeCertificateIx(programId, { hash: h.hash, authority: institution.publicKey, reasonCode: ReasonCode.RevokedByIssuer })))).toMatch(/NotAuthorizedToRevoke/);
    expect(await chainError(send(conn, institution, confirmCertificateIx(programId, { hash: h.hash, authority: institution.publicKey })))).toMatch(/ConfirmationNotRequested/);

    await server.chainSync.idle();
    expect(await server.services.chain.readCertificate(h.hash)).toEqual(record);
    expect(await seen(server, h.id, sha256)).toEqual(before);
    expect(before.byId).toMatchObject({ valid: true, tier: 'platform_verified', issuer: null });
  });

  it('a supersede chain back to the holder (issued elsewhere, revoked, issued back) never makes their earlier claim a confirmation', async () => {
    const h = await holderWithCertificate(server, 'Doctor of Philosophy');
    const elsewhere = Keypair.generate();
    const issue = (to: Keypair) => send(conn, institution, issueCertificateIx(programId, { hash: h.hash, holder: to.publicKey, authority: institution.publicKey, payer: institution.publicKey, expiresAt: 0n }));
    await issue(elsewhere);
    await server.chainSync.idle();
    const superseded = await h.c.client.certificate.byId.query({ id: h.id });
    expect(superseded.verification_status).toBe('superseded');
    // The issuer revokes what it issued elsewhere and issues the file back to the first wallet: on chain
    // an issue over another wallet's record, both supersedes public.
    await send(conn, institution, revokeCertificateIx(programId, { hash: h.hash, authority: institution.publicKey, reasonCode: ReasonCode.RevokedByIssuer }));
    await issue(h.holder);
    await server.chainSync.idle();
    expect(await server.services.chain.readCertificate(h.hash)).toMatchObject({ status: CertificateStatus.Verified, tier: TrustTier.IssuerConfirmed });

    // The holder's claim stays over, as it was said; no verify surface calls it confirmed.
    const after = await h.c.client.certificate.byId.query({ id: h.id });
    expect(after).toMatchObject({ verification_status: 'superseded', tier: 'none', verification_details: superseded.verification_details });
    expect(await server.services.db.selectFrom('certificate').select(['issuer_authority', 'claims_confirmed']).where('id', '=', h.id).executeTakeFirstOrThrow()).toEqual({ issuer_authority: null, claims_confirmed: 0 });
    expect(await makeClient(server.url).client.public.verifyById.query({ certificateId: h.id })).toMatchObject({ valid: false, status: 'superseded', certificate: { title: 'Doctor of Philosophy' } });
    expect((await fetch(`${server.url}/files/certificates/${h.id}`)).status).toBe(404);
    // What the institution did is its issue to that wallet: the holder may add the file again to hold it.
    const added = await h.c.client.certificate.create.mutate(certForm({ title: 'Doctor of Philosophy', institution_name: INSTITUTION, program_name: 'Marine Biology', issue_date: '2024-05-01' }, { bytes: h.pdf, name: 'cert.pdf' }));
    expect(added.id).not.toBe(h.id);
  });
});

describe('a chain that still runs the older program (it lets the issue land)', () => {
  let older: Server;
  let olderConn: Connection;
  const dir = tmpDataDir();
  const unasked = Keypair.generate();
  const asked = Keypair.generate();

  beforeAll(async () => {
    older = await startTestServer(dir, { ATTESTA_PROGRAM_PATH: OLDER_PROGRAM });
    olderConn = rpcConnection(older);
    await approvedIssuer(older, unasked, 'Attesta Demo University');
    await approvedIssuer(older, asked, INSTITUTION);
    await fund(olderConn, unasked);
    await fund(olderConn, asked);
  }, 120_000);
  afterAll(async () => {
    await older?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the landing is not presented as a confirmation the holder asked for: the institution\'s word covers the file only, never the claims', async () => {
    const h = await holderWithCertificate(older, 'Master of Science');
    const sha256 = Buffer.from(h.hash).toString('hex');
    await send(olderConn, unasked, issueCertificateIx(programId, { hash: h.hash, holder: h.holder.publicKey, authority: unasked.publicKey, payer: unasked.publicKey, expiresAt: 0n }));
    await older.chainSync.idle();

    const row = await h.c.client.certificate.byId.query({ id: h.id });
    expect(row).toMatchObject({ verification_status: 'verified', tier: 'issuer_confirmed', institution_name: INSTITUTION, claims_confirmed: false });
    expect(row.verification_details).toMatchObject({ kind: 'confirmed', requested: false, claims_confirmed: false, content_checked: false, issuer: { authority: unasked.publicKey.toBase58(), name: 'Attesta Demo University' } });
    expect(row.verification_details?.reason).toMatch(
      /^Attesta Demo University issued this file to this wallet on chain over the holder's own record on [A-Z][a-z]+ \d{1,2}, \d{4}, without the holder asking it to confirm it: the title and program shown were entered by the holder and were not confirmed\.$/,
    );
    expect(row.verification_details?.reason).not.toMatch(/confirmed this certificate/);
    // Every verify surface: not valid as a certificate, and why.
    const v = await seen(older, h.id, sha256);
    for (const verdict of [v.byId, v.byHash, v.rest]) {
      // The institution's key speaks for it alone: the certificate names another institution.
      expect(verdict).toMatchObject({
        valid: false,
        note: "Attesta Demo University confirmed this file on chain with its own key, but the certificate names Northfield Institute of Technology, which has not confirmed it: a confirmation by Attesta Demo University is not Northfield Institute of Technology's word.",
      });
    }
    expect(v.requests).toEqual([]);

    // A row the earlier follower wrote as the confirmation (before this fix) is said again as what it is.
    const earlier = { ...row.verification_details, reason: 'Attesta Demo University confirmed this certificate on chain: its own key signed the record.', content_checked: true, requested: undefined };
    await older.services.db.updateTable('certificate').set({ verification_details: JSON.stringify(earlier) }).where('id', '=', h.id).execute();
    expect(await reconcileCertificate(older.services, sha256)).toEqual([h.id]);
    expect((await h.c.client.certificate.byId.query({ id: h.id })).verification_details).toEqual(row.verification_details);
  });

  it('where the holder did ask that institution, its word is the confirmation they asked for', async () => {
    const h = await holderWithCertificate(older, 'Bachelor of Science');
    await fund(olderConn, h.holder);
    await send(olderConn, h.holder, requestConfirmationIx(programId, { hash: h.hash, holder: h.holder.publicKey, issuerAuthority: asked.publicKey }));
    await older.chainSync.idle();
    await send(olderConn, asked, issueCertificateIx(programId, { hash: h.hash, holder: h.holder.publicKey, authority: asked.publicKey, payer: asked.publicKey, expiresAt: 0n }));
    await older.chainSync.idle();
    const row = await h.c.client.certificate.byId.query({ id: h.id });
    expect(row).toMatchObject({ verification_status: 'verified', tier: 'issuer_confirmed' });
    expect(row.verification_details?.reason).toMatch(new RegExp(`^${INSTITUTION} \\(.+\\) confirmed this certificate on chain`));
    expect(await makeClient(older.url).client.public.verifyById.query({ certificateId: h.id })).toMatchObject({ valid: true, tier: 'issuer_confirmed', issuer: { name: INSTITUTION } });
    expect((await older.services.db.selectFrom('confirmation_request').select(['issuer_authority', 'status']).where('certificate_id', '=', h.id).execute())).toEqual([
      { issuer_authority: asked.publicKey.toBase58(), status: 'confirmed' },
    ]);
  });
});

// Attacks on "verified means exactly what a verifier reads into it": a check by the platform is not the
// institution's word, an institution's confirmation is not a check of claims nobody checked, and
// every verdict says what was checked.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, type Connection } from '@solana/web3.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { IssuerStatus, fromHex } from '../../shared/program/codec';
import { confirmCertificateIx, issueCertificateIx, requestConfirmationIx } from '../../shared/program/instructions';
import type { Server } from '../src/app';
import { TEST_HOLDER_NAME, certForm, makeClient, signIn, waitFor } from './helpers';
import { INSTITUTION, approvedIssuer, finalRow, fund, holderWithCertificate, send, startWorld, type World } from './attack-support/world';

const programId = CERTIFICATES_PROGRAM_ID;
let server: Server;
let conn: Connection;
let world: World;
const institution = Keypair.generate();

beforeAll(async () => {
  world = await startWorld(institution);
  ({ server, conn } = world);
}, 120_000);

afterAll(() => world?.close());

describe('attack: whose word a verdict carries', () => {
  // Proves: a platform-only verdict names an institution as `issuer` in the details every verify surface
  // returns (public.verifyById / verifyByHash `certificate.verification_details.issuer`, REST
  // POST /api/v1/verify/{id} `details.issuer`, certificate.byId). pipeline.ts issuerStep puts the
  // approved issuer whose *name matches the holder's claim* into `issuer` although it confirmed
  // nothing — contrary to the decision "every verdict shows issuer only when it confirmed".
  it('a platform-verified certificate does not name an institution as its issuer anywhere', async () => {
    const h = await holderWithCertificate(server, 'Bachelor of Engineering');
    expect(h.row).toMatchObject({ verification_status: 'verified', tier: 'platform_verified' });
    const v = await makeClient(server.url).client.public.verifyById.query({ certificateId: h.id });
    expect(v.issuer).toBeNull(); // the chain part holds
    expect(v.certificate?.verification_details?.issuer ?? null).toBeNull();
    expect(h.row.verification_details?.issuer ?? null).toBeNull();
  });

  // Proves: the content check found the holder's claims false (the document is a "Certificate of
  // Attendance", the holder claims a "Doctor of Philosophy" from "Harvard University"), yet once the
  // institution the holder picked confirms the *file* on chain, the follower (chain-sync/reconcile.ts)
  // turns the row into verified / issuer_confirmed with those unchecked claims, and every verdict is
  // valid: the public page reads "Authentic … Harvard University, Doctor of Philosophy".
  it('an institution confirming a file does not make claims the content check rejected verified', async () => {
    const h = await holderWithCertificate(server, 'Doctor of Philosophy', {
      lines: [INSTITUTION, 'Certificate of Attendance', 'Marine Biology', 'awarded to A. Holder'],
      claims: { institution_name: 'Harvard University' },
    });
    expect(h.row.verification_status).toBe('rejected');
    await fund(conn, h.holder);
    await send(conn, h.holder, requestConfirmationIx(programId, { hash: h.hash, holder: h.holder.publicKey, issuerAuthority: institution.publicKey }));
    await send(conn, institution, confirmCertificateIx(programId, { hash: h.hash, authority: institution.publicKey }));
    await server.chainSync.idle();
    const v = await makeClient(server.url).client.public.verifyById.query({ certificateId: h.id });
    const shown = { valid: v.valid, title: v.certificate?.title, institution: v.certificate?.institution_name, confirmedBy: v.issuer?.name };
    // Either the verdict is not "valid" for these claims, or what it shows is what was confirmed.
    expect(shown.valid === false || (shown.institution === shown.confirmedBy && !/Doctor of Philosophy/.test(String(shown.title)))).toBe(true);
  });

  // Proves: when the operator suspends an institution (the notes' answer to a rogue issuer), certificates
  // that institution issued still verify as valid: computeVerdict's `valid` is status === verified and
  // ignores the confirming issuer's status, so the app's banner says "Authentic" while its own issuer
  // line says the registration is suspended (and the pipeline's issuerStep calls it not approved).
  it('a certificate issued by an institution the operator suspended is not valid', async () => {
    const rogue = Keypair.generate();
    await approvedIssuer(server, rogue, 'Rogue Diploma Mill');
    await fund(conn, rogue);
    const hash = createHash('sha256').update(`forged diploma ${Math.random()}`).digest();
    await send(conn, rogue, issueCertificateIx(programId, { hash, holder: rogue.publicKey, authority: rogue.publicKey, payer: rogue.publicKey, expiresAt: 0n }));
    await server.services.chain.setIssuerStatus({ authority: rogue.publicKey, status: IssuerStatus.Suspended }, { kind: 'set_issuer_status' });
    const v = await makeClient(server.url).client.public.verifyByHash.query({ sha256: hash.toString('hex') });
    expect(v.issuer?.status).toBe('suspended');
    expect(v.valid).toBe(false);
  });
});

/** A PDF naming the claims and the test holder, saved by an editing tool years after it was created (the audit's tamper.ts). */
async function editedPdf(lines: string[]) {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setCreator('Microsoft Word');
  doc.setProducer('iLovePDF');
  doc.setCreationDate(new Date('2021-06-01T10:00:00Z'));
  doc.setModificationDate(new Date('2025-10-01T10:00:00Z'));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([842, 595]);
  let y = 520;
  for (const l of [...lines, `Awarded to ${TEST_HOLDER_NAME}, ref ${Math.random().toString(36).slice(2)}`]) {
    page.drawText(l, { x: 60, y, size: 20, font });
    y -= 40;
  }
  return doc.save();
}

const restVerdict = async (sha256: string) => (await fetch(`${server.url}/api/v1/verify/hash/${sha256}`)).json();

describe('attack: what a verdict leaves out', () => {
  // The audit: the document check flagged "Saved by an editing tool (iLovePDF) after being created by
  // Microsoft Word" and "Modified … after it was created"; only the holder's log said so. The public
  // view, /verification, the REST verdict and the NFT metadata said a plain "Checked by Attesta only".
  it("what the platform's check flagged goes with every verdict that rests on it (it stays valid, and says so)", async () => {
    const c = makeClient(server.url);
    const { user } = await signIn(c);
    const created = await c.client.certificate.create.mutate(
      certForm({ title: 'Master of Business Administration', institution_name: INSTITUTION, program_name: 'Finance', issue_date: '2023-06-01' }, { bytes: await editedPdf([INSTITUTION, 'Master of Business Administration', 'Finance']), name: 'mba.pdf' }),
    );
    const row = await finalRow(c, created.id);
    expect(row).toMatchObject({ verification_status: 'verified', tier: 'platform_verified' });
    const signals = row.verification_details?.tamper_signals as string[];
    expect(signals).toContain('Saved by an editing tool (iLovePDF) after being created by Microsoft Word.');
    expect(signals.some((f) => /^Modified .+ after it was created\.$/.test(f))).toBe(true);

    const anon = makeClient(server.url).client;
    const byId = await anon.public.verifyById.query({ certificateId: created.id });
    const byHash = await anon.public.verifyByHash.query({ sha256: row.sha256 });
    const rest = await restVerdict(row.sha256);
    for (const v of [byId, byHash, rest]) {
      // Flagged, and still valid: the text names the claims; the words say both.
      expect(v).toMatchObject({ valid: true, tier: 'platform_verified', flags: signals });
      expect(v.note).toBe(`Checked by Attesta only, not confirmed by ${INSTITUTION}. Its check flagged what follows, which does not make it invalid on its own (the text names the claims): ${signals.join(' ')}`);
    }
    // The holder reads what a verifier reads.
    expect((await c.client.certificate.byId.query({ id: created.id })).public_note).toBe(byId.note);
    expect((await c.client.certificate.list.query()).find((x) => x.id === created.id)?.public_note).toBe(byId.note);

    // The NFT metadata minted from it carries them too (description and an attribute).
    await c.client.mint.prepare.mutate({ id: created.id });
    const attempt = await server.services.db.selectFrom('mint_attempt').select('metadata_url').where('certificate_id', '=', created.id).executeTakeFirstOrThrow();
    const meta = await (await fetch(attempt.metadata_url)).json();
    expect(meta.description).toContain(`Attesta's check flagged (not a rejection on its own): ${signals.join(' ')}`);
    expect(meta.attributes).toContainEqual({ trait_type: 'Check Flags', value: signals.join(' ') });
    expect(user.id).toBeTruthy();

    // A file nothing was flagged in: no flags, and the note as before.
    const clean = await holderWithCertificate(server, 'Bachelor of Commerce');
    const v = await anon.public.verifyByHash.query({ sha256: clean.row.sha256 });
    expect(v).toMatchObject({ valid: true, flags: [], note: `Checked by Attesta only, not confirmed by ${INSTITUTION}.` });
  });

  // The audit: an institution whose name differs from the certificate's claimed institution confirmed it
  // on chain, outside the product's flow (request_confirmation + confirm_certificate over /rpc): the
  // verdict read "Authentic: confirmed by Southgate College" above claims naming another institution.
  it("a confirmation by another institution than the one the certificate names is not that institution's word: not valid, and says why", async () => {
    const southgate = Keypair.generate();
    await approvedIssuer(server, southgate, 'Southgate College');
    await fund(conn, southgate, 0.1); // the faucet gives a client ◎5 an hour: a little each
    const h = await holderWithCertificate(server, 'Certificate in Chemistry');
    expect(h.row).toMatchObject({ verification_status: 'verified', institution_name: INSTITUTION });
    await fund(conn, h.holder, 0.1);
    await send(conn, h.holder, requestConfirmationIx(programId, { hash: h.hash, holder: h.holder.publicKey, issuerAuthority: southgate.publicKey }));
    await send(conn, southgate, confirmCertificateIx(programId, { hash: h.hash, authority: southgate.publicKey }));
    await server.chainSync.idle();
    const anon = makeClient(server.url).client;
    const byId = await anon.public.verifyById.query({ certificateId: h.id });
    const byHash = await anon.public.verifyByHash.query({ sha256: h.row.sha256 });
    const note = `Southgate College confirmed this file on chain with its own key, but the certificate names ${INSTITUTION}, which has not confirmed it: a confirmation by Southgate College is not ${INSTITUTION}'s word.`;
    for (const v of [byId, byHash, await restVerdict(h.row.sha256)]) {
      expect(v).toMatchObject({ status: 'verified', tier: 'issuer_confirmed', issuer: { name: 'Southgate College' }, certificate: { institution_name: INSTITUTION }, valid: false, note });
    }
    const own = await h.c.client.certificate.byId.query({ id: h.id });
    expect(own).toMatchObject({ public_valid: false, public_note: note });
    expect((await h.c.client.certificate.list.query()).find((x) => x.id === h.id)).toMatchObject({ public_valid: false, public_note: note });
  });

  // The audit: by hash, a pending certificate whose content nobody could read said "Verification
  // pending" and no reason, and "No transactions recorded." (also for a rejected one) though its record
  // has them. The verdict drops an unverified certificate's row (its fields are its holder's); its
  // transactions are public chain facts, and that it waits for its institution is said in words.
  // Then (the audit's image upload): the SHA-256 of the image the holder uploaded, dropped on
  // /verification, read "not recorded on chain"; once the certificate is verified it finds its verdict.
  it('a pending or rejected certificate by hash lists its transactions and says why it waits; an original upload\'s hash finds its verified certificate', { timeout: 120_000 }, async () => {
    const c = makeClient(server.url);
    const { wallet, user } = await signIn(c);
    const holder = Keypair.fromSecretKey(wallet.secretKey);
    const blank = await sharp({ create: { width: 1200, height: 850, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const title = 'Unreadable Diploma in Law';
    const created = await c.client.certificate.create.mutate(certForm({ title, institution_name: INSTITUTION, program_name: 'Law', issue_date: '2024-05-01' }, { bytes: blank, name: 'diploma.png', type: 'image/png' }));
    const row = await waitFor(async () => {
      const r = await c.client.certificate.byId.query({ id: created.id });
      return r.verification_details?.state === 'awaiting_confirmation' && r;
    }, 90_000);
    const original = row.original_sha256!;
    expect(original).toMatch(/^[0-9a-f]{64}$/);
    expect(original).not.toBe(row.sha256);

    const anon = makeClient(server.url).client;
    const waiting = /^Not verified: its content could not be read automatically, so it waits for the institution to confirm it on chain with its own key\./;
    for (const v of [await anon.public.verifyByHash.query({ sha256: row.sha256 }), await restVerdict(row.sha256)]) {
      expect(v).toMatchObject({ status: 'pending', valid: false, certificate: null, flags: [] });
      expect(v.note).toMatch(waiting);
      expect(v.transactions.map((t: { kind: string }) => t.kind)).toContain('anchor_certificate');
      // Still nothing of the row: no title, no holder, no link.
      for (const secret of [title, user.id, created.id, TEST_HOLDER_NAME]) expect(JSON.stringify(v)).not.toContain(secret);
    }
    // Not verified: its original upload's hash finds nothing (as any other field of the row).
    expect(await anon.public.verifyByHash.query({ sha256: original })).toMatchObject({ status: 'not_found', original_sha256: null, certificate: null });

    // Asked (on chain): said too.
    await fund(conn, holder, 0.1);
    await send(conn, holder, requestConfirmationIx(programId, { hash: fromHex(row.sha256), holder: holder.publicKey, issuerAuthority: institution.publicKey }));
    await server.chainSync.idle();
    expect((await anon.public.verifyByHash.query({ sha256: row.sha256 })).note).toMatch(new RegExp(`${waiting.source.slice(1)} Its holder asked ${INSTITUTION} to confirm it\\.$`));

    // Confirmed by the institution: verified. Its original image's hash now answers with its verdict.
    await send(conn, institution, confirmCertificateIx(programId, { hash: fromHex(row.sha256), authority: institution.publicKey }));
    await server.chainSync.idle();
    const byPdf = await anon.public.verifyByHash.query({ sha256: row.sha256 });
    expect(byPdf).toMatchObject({ status: 'verified', certificate: { id: created.id }, original_sha256: null });
    for (const v of [await anon.public.verifyByHash.query({ sha256: original }), await restVerdict(original)]) {
      expect(v).toMatchObject({ status: 'verified', sha256: row.sha256, original_sha256: original, integrity: 'not_checked', certificate: { id: created.id }, valid: byPdf.valid, note: byPdf.note, tier: byPdf.tier });
    }

    // A rejected certificate by hash: its transactions too, and still none of its fields.
    const rejected = await holderWithCertificate(server, 'Doctor of Medicine', { lines: [INSTITUTION, 'Certificate of Attendance', 'Marine Biology'] });
    expect(rejected.row.verification_status).toBe('rejected');
    const r = await anon.public.verifyByHash.query({ sha256: rejected.row.sha256 });
    expect(r).toMatchObject({ status: 'rejected', certificate: null });
    expect(r.transactions.map((t) => t.kind)).toEqual(expect.arrayContaining(['anchor_certificate', 'record_verification']));
    expect(JSON.stringify(r)).not.toContain('Doctor of Medicine');
  });
});

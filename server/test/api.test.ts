import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { CertificateStatus } from '../../shared/program/codec';
import { sql } from 'kysely';
import sharp from 'sharp';
import { MESSAGES } from '../../shared/constants';
import { isPostgres } from '../src/db';
import type { Server } from '../src/app';
import { certForm, footprint, makeClient, makeImage, makePdf, newWallet, signIn, startTestServer, TEST_HOLDER_NAME, tmpDataDir, waitFor } from './helpers';
import { renderCertificateImage } from '../src/services/ocr/test-fixtures';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const claims = { title: 'Master of Arts', institution_name: 'Northwind University', program_name: 'Medieval History', issue_date: '2024-05-01' };
const goodPdf = (holder?: string) => makePdf(['Northwind University', 'Master of Arts', 'Medieval History'], { holder });

async function rejects(p: Promise<unknown>): Promise<TRPCClientError<never>> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TRPCClientError);
    return e as TRPCClientError<never>;
  }
  throw new Error('expected the call to fail');
}
const code = (e: TRPCClientError<never>) => (e.data as { code?: string } | undefined)?.code;

let server: Server;
let dir: string;
beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir);
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sign in with Solana', () => {
  it('signs in with a real ed25519 signature, sets an HttpOnly cookie, and signs out', async () => {
    const c = makeClient(server.url);
    expect(await c.client.auth.me.query()).toBeNull();
    const wallet = newWallet();
    const { message } = await c.client.auth.nonce.mutate({ address: wallet.address });
    // Sign In With Solana (EIP-4361 layout): this server's own address, version, chain, nonce, times.
    const host = new URL(server.url).host;
    expect(message.split('\n')).toEqual([
      `${host} wants you to sign in with your Solana account:`,
      wallet.address,
      '',
      'Sign in to Attesta.',
      '',
      `URI: http://${host}`,
      'Version: 1',
      'Chain ID: localnet',
      expect.stringMatching(/^Nonce: [A-Za-z0-9]{24}$/),
      expect.stringMatching(/^Issued At: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      expect.stringMatching(/^Expiration Time: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    ]);
    const raw = await c.fetch(`${server.url}/trpc/auth.signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: wallet.address, message, signature: wallet.sign(message) }),
    });
    expect(raw.status).toBe(200);
    const cookie = raw.headers.getSetCookie()[0];
    expect(cookie).toMatch(/^attesta_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    const me = await c.client.auth.me.query();
    expect(me?.wallet_address).toBe(wallet.address);
    // Stored hashed: the raw token is nowhere in the session table.
    const token = c.jar.get('attesta_session')!;
    const rows = await server.services.db.selectFrom('session').selectAll().execute();
    expect(rows.some((r) => r.token_hash === createHash('sha256').update(token).digest('hex'))).toBe(true);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);

    await c.client.auth.signOut.mutate();
    expect(await c.client.auth.me.query()).toBeNull();
    expect(code(await rejects(c.client.profile.get.query()))).toBe('UNAUTHORIZED');
  });

  it('refuses a bad signature, a replay, an expired request and a tampered message — no user, no session', async () => {
    const c = makeClient(server.url);
    const wallet = newWallet();
    const other = newWallet();
    const users0 = (await server.services.db.selectFrom('user').selectAll().execute()).length;
    const sessions0 = (await server.services.db.selectFrom('session').selectAll().execute()).length;

    const { message } = await c.client.auth.nonce.mutate({ address: wallet.address });
    const bad = await rejects(c.client.auth.signIn.mutate({ address: wallet.address, message, signature: other.sign(message) }));
    expect(code(bad)).toBe('UNAUTHORIZED');
    expect(bad.message).toBe(MESSAGES.signatureMismatch);

    const tampered = message.replace('Sign in to Attesta.', 'Sign in to Attesta.').replace(/URI: .*/, 'URI: https://evil.example');
    const t = await rejects(c.client.auth.signIn.mutate({ address: wallet.address, message: tampered, signature: wallet.sign(tampered) }));
    expect(code(t)).toBe('UNAUTHORIZED');

    const { message: m2 } = await c.client.auth.nonce.mutate({ address: wallet.address });
    await server.services.db.updateTable('sign_in_nonce').set({ expires_at: Date.now() - 1 }).where('message', '=', m2).execute();
    const exp = await rejects(c.client.auth.signIn.mutate({ address: wallet.address, message: m2, signature: wallet.sign(m2) }));
    expect(exp.message).toBe(MESSAGES.signInExpired);

    expect((await server.services.db.selectFrom('user').selectAll().execute()).length).toBe(users0);
    expect((await server.services.db.selectFrom('session').selectAll().execute()).length).toBe(sessions0);

    // The good signature works once; the same signed message again is a replay.
    await c.client.auth.signIn.mutate({ address: wallet.address, message, signature: wallet.sign(message) });
    const replay = await rejects(makeClient(server.url).client.auth.signIn.mutate({ address: wallet.address, message, signature: wallet.sign(message) }));
    expect(code(replay)).toBe('UNAUTHORIZED');
    expect(replay.message).toBe(MESSAGES.signInUsed);

    const wrongType = await rejects(c.client.auth.nonce.mutate({ address: 'not-an-address' }));
    expect(code(wrongType)).toBe('BAD_REQUEST');
  });
});

describe('profile', () => {
  it('updates with the seed rules and uploads a photo checked by its bytes', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    const e1 = await rejects(c.client.profile.update.mutate({ full_name: '   ', email: '' }));
    expect(code(e1)).toBe('BAD_REQUEST');
    expect(e1.message).toBe(MESSAGES.fullNameRequired);
    const e2 = await rejects(c.client.profile.update.mutate({ full_name: 'Ada', email: 'not-an-email' }));
    expect(e2.message).toBe(MESSAGES.invalidEmail);
    const before = await c.client.profile.get.query();
    await new Promise((r) => setTimeout(r, 5));
    const p = await c.client.profile.update.mutate({ full_name: '  Ada Lovelace ', email: ' Ada@Example.com ' });
    expect(p).toMatchObject({ full_name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(Date.parse(p.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));

    const gif = await makeImage('gif', 64, 64);
    const fd = new FormData();
    fd.set('photo', new File([gif as BlobPart], 'me.gif', { type: 'image/gif' }));
    const withPhoto = await c.client.profile.uploadPhoto.mutate(fd);
    expect(withPhoto.profile_image_url).toMatch(/^\/files\/photos\//);
    const img = await fetch(`${server.url}${withPhoto.profile_image_url}`);
    expect(img.headers.get('content-type')).toBe('image/gif');
    expect((await sharp(new Uint8Array(await img.arrayBuffer())).metadata()).width).toBe(64);

    // Camera metadata never reaches the people who look at the photo.
    const tagged = await sharp(await makeImage('jpeg', 80, 60)).withExif({ IFD0: { Copyright: 'OWNER-SERIAL-4711' } }).jpeg().toBuffer();
    const fdJpeg = new FormData();
    fdJpeg.set('photo', new File([tagged as BlobPart], 'me.jpg', { type: 'image/jpeg' }));
    const withJpeg = await c.client.profile.uploadPhoto.mutate(fdJpeg);
    const served = Buffer.from(await (await fetch(`${server.url}${withJpeg.profile_image_url}`)).arrayBuffer());
    expect(tagged.toString('latin1')).toContain('OWNER-SERIAL-4711');
    expect(served.toString('latin1')).not.toContain('OWNER-SERIAL-4711');
    expect((await sharp(served).metadata()).format).toBe('jpeg');

    const pdf = new FormData();
    pdf.set('photo', new File([(await goodPdf()) as BlobPart], 'me.png', { type: 'image/png' }));
    const bad = await rejects(c.client.profile.uploadPhoto.mutate(pdf));
    expect(code(bad)).toBe('BAD_REQUEST');
    const big = new FormData();
    big.set('photo', new File([new Uint8Array(3 * 1024 * 1024) as BlobPart], 'big.jpg'));
    expect((await rejects(c.client.profile.uploadPhoto.mutate(big))).message).toMatch(/2 MB/);
  });
});

describe('certificates', () => {
  it('creates from a PDF, verifies it through the pipeline (live over SSE) and serves it', async () => {
    const c = makeClient(server.url);
    const { wallet } = await signIn(c);
    const pdf = await goodPdf();
    const cert = await c.client.certificate.create.mutate(certForm({ ...claims, title: '  Master of Arts  ' }, { bytes: pdf, name: 'diploma.pdf', type: 'application/pdf' }));
    expect(cert).toMatchObject({ ...claims, verification_status: 'pending', sha256: sha(pdf), original_sha256: null, holder_wallet: wallet.address });
    expect(cert.id).toMatch(/^c_[0-9a-z]{16}$/);
    expect(cert.anchor_signature).toBeTruthy();
    expect(cert.verification_url).toBe(`${server.url}/view/${cert.user_id}/${cert.id}`);

    const seen: string[] = [];
    const final = await new Promise<string>((resolve, reject) => {
      const sub = c.client.certificate.onStatus.subscribe(
        { id: cert.id },
        {
          onData: (e) => {
            const d = e.data;
            seen.push(d.step ?? d.verification_status);
            if (d.verification_status !== 'pending') {
              sub.unsubscribe();
              resolve(d.verification_status);
            }
          },
          onError: reject,
        },
      );
      setTimeout(() => reject(new Error('no final status')), 20_000);
    });
    expect(final).toBe('verified');
    expect(seen[0]).toBe('pending');

    const got = await c.client.certificate.byId.query({ id: cert.id });
    expect(got.verification_status).toBe('verified');
    expect(got.tier).toBe('platform_verified');
    expect(got.verify_signature).toBeTruthy();
    expect(got.verification_details?.tier).toBe('platform_verified');
    const logs = await c.client.certificate.logs.query({ id: cert.id });
    expect(logs.map((l) => [l.verification_step, l.status])).toEqual([
      ['hash_verification', 'success'],
      ['document_checks', 'success'],
      ['issuer_verification', 'success'],
      ['chain_record', 'success'],
    ]);
    // The institution's step says whose word this is not: no institution checked it.
    expect(logs[2].details).toMatchObject({ message: `Not confirmed by ${claims.institution_name}: checked by Attesta only.`, tier: 'platform_verified', issuer: null, institution_approved: false });
    // What its public verdict says, as its holder sees it: valid, whose check it is, no institution —
    // the same in the holder's list (judged from the rows) as by id (the public verdict itself).
    const standing = { public_valid: true, public_note: `Checked by Attesta only, not confirmed by ${claims.institution_name}.`, expires_at: null, public_issuer: null };
    expect(got).toMatchObject(standing);
    expect((await c.client.certificate.list.query({})).find((x) => x.id === cert.id)).toMatchObject(standing);

    const record = await server.services.chain.readCertificate(Buffer.from(cert.sha256, 'hex'));
    expect(record?.holder.toBase58()).toBe(wallet.address);
    expect(record?.status).toBe(1);

    // The owner downloads the exact bytes; anyone may once it is verified.
    const own = await c.fetch(cert.certificate_url);
    expect(sha(new Uint8Array(await own.arrayBuffer()))).toBe(cert.sha256);
    const anon = await fetch(cert.certificate_url);
    expect(anon.status).toBe(200);

    const stats = await c.client.certificate.stats.query();
    // Checked by Attesta only: counted as what a verifier's badge reads, never as "Verified".
    expect(stats).toEqual({ total: 1, verified: 0, platform_checked: 1, domain_not_proven: 0, issuer_unchecked: 0, not_valid: 0, pending: 0, rejected: 0, minted: 0 });
    // The list's filters by badge agree: under "Checked by Attesta only", not under "Verified".
    const ids = async (standing: 'verified' | 'platform_checked' | 'domain_not_proven') => (await c.client.certificate.list.query({ status: 'verified', standing })).map((x) => x.id);
    expect(await ids('platform_checked')).toEqual([cert.id]);
    expect(await ids('verified')).toEqual([]);
    expect(await ids('domain_not_proven')).toEqual([]);
  });

  it('converts PNG and WEBP to PDF, hashes both, anchors the PDF', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    for (const kind of ['png', 'webp'] as const) {
      // The PNG shows the claimed text (checked by OCR); the WEBP is a pattern with no text at all.
      const img = kind === 'png' ? await renderCertificateImage([claims.title, claims.institution_name, claims.program_name, `awarded to ${TEST_HOLDER_NAME}`]) : await makeImage(kind);
      const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: img, name: `scan.${kind}`, type: `image/${kind}` }));
      expect(cert.original_sha256).toBe(sha(img));
      expect(cert.sha256).not.toBe(cert.original_sha256);
      expect(cert.file_name).toBe('scan.pdf');
      const stored = new Uint8Array(await (await c.fetch(cert.certificate_url)).arrayBuffer());
      expect(Buffer.from(stored.subarray(0, 5)).toString()).toBe('%PDF-');
      expect(sha(stored)).toBe(cert.sha256);
      expect(await server.services.chain.readCertificate(Buffer.from(cert.sha256, 'hex'))).not.toBeNull();
      // No text layer: OCR reads the PNG's text, so it is verified; the WEBP has none, so its content
      // was never checked: it is not verified (on chain or here) but waits, with the reason shown.
      const done = await waitFor(async () => {
        const r = await c.client.certificate.byId.query({ id: cert.id });
        return (r.verification_status !== 'pending' || r.verification_details?.state === 'awaiting_confirmation') && r;
      }, 60_000); // OCR: worker start-up plus a few seconds per page on a loaded machine
      const logs = await c.client.certificate.logs.query({ id: cert.id });
      expect(logs.find((l) => l.verification_step === 'document_checks')?.status).toBe(kind === 'png' ? 'success' : 'pending');
      const record = await server.services.chain.readCertificate(Buffer.from(cert.sha256, 'hex'));
      if (kind === 'png') {
        expect(done.verification_status).toBe('verified');
        expect(done.verification_details?.content_checked).toBe(true);
        expect(record?.status).toBe(CertificateStatus.Verified);
      } else {
        expect(done.verification_status).toBe('pending');
        expect(done.verification_details).toMatchObject({ state: 'awaiting_confirmation', content_checked: false });
        expect(String(done.verification_details?.reason)).toMatch(/not marked verified: it stays pending until the institution that issued it confirms it/);
        expect(record?.status).toBe(CertificateStatus.Pending);
        expect(await c.client.public.verifyById.query({ certificateId: cert.id })).toMatchObject({ valid: false, status: 'pending' });
      }
    }
  });

  it('rejects a PDF whose text does not match the claim, on chain with a reason; Try Again re-runs', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    const pdf = await makePdf(['Some Other College', 'Certificate of Attendance']);
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'x.pdf' }));
    const done = await waitFor(async () => {
      const r = await c.client.certificate.byId.query({ id: cert.id });
      return r.verification_status !== 'pending' && r;
    });
    expect(done.verification_status).toBe('rejected');
    expect(done.verification_details).toMatchObject({ reason_code: 2, reason_name: 'content_mismatch' });
    // Each claim the text does not name is set beside the passage closest to it.
    expect(String(done.verification_details?.reason)).toMatch(/^The document names “[^”]+”; you claimed the title “[^”]+”\. The document names “[^”]+”; you claimed the institution “[^”]+”\. The document names “[^”]+”; you claimed the program “[^”]+”\./);
    const record = await server.services.chain.readCertificate(Buffer.from(cert.sha256, 'hex'));
    expect(record).toMatchObject({ status: 2, reasonCode: 2 });

    const v = await c.client.public.verifyById.query({ certificateId: cert.id });
    expect(v).toMatchObject({ valid: false, status: 'rejected', reason: 'content_mismatch' });

    const again = await c.client.certificate.retryVerification.mutate({ id: cert.id });
    expect(again.job_id).toBeTruthy();
    await waitFor(async () => {
      const job = await server.services.db.selectFrom('verification_job').select('status').where('id', '=', again.job_id!).executeTakeFirst();
      return job?.status === 'done';
    });
    const logs = await c.client.certificate.logs.query({ id: cert.id });
    expect(logs.filter((l) => l.verification_step === 'document_checks')).toHaveLength(2);
  });

  it('lists own certificates with search and status filter; other users get NOT_FOUND', async () => {
    const a = makeClient(server.url);
    const b = makeClient(server.url);
    await signIn(a);
    await signIn(b);
    const one = await a.client.certificate.create.mutate(certForm({ ...claims, title: 'Diploma in Quantum Baking' }, { bytes: await goodPdf(), name: 'a.pdf' }));
    await a.client.certificate.create.mutate(certForm({ ...claims, program_name: 'Applied Origami' }, { bytes: await goodPdf(), name: 'b.pdf' }));
    expect((await a.client.certificate.list.query({ search: 'QUANTUM' })).map((x) => x.id)).toEqual([one.id]);
    expect(await a.client.certificate.list.query({ search: 'origami' })).toHaveLength(1);
    expect(await a.client.certificate.list.query({ search: 'northwind' })).toHaveLength(2);
    expect(await a.client.certificate.list.query({ search: '100%_' })).toHaveLength(0);
    // Compare once the pipeline has settled, so statuses do not move under the filter.
    const all = await waitFor(async () => {
      const l = await a.client.certificate.list.query();
      return l.every((x) => x.verification_status !== 'pending') && l;
    });
    for (const status of ['pending', 'verified', 'rejected'] as const) {
      const some = await a.client.certificate.list.query({ status });
      expect(some.map((x) => x.id).sort()).toEqual(all.filter((x) => x.verification_status === status).map((x) => x.id).sort());
    }
    expect(await b.client.certificate.list.query()).toHaveLength(0);

    for (const call of [
      () => b.client.certificate.byId.query({ id: one.id }),
      () => b.client.certificate.logs.query({ id: one.id }),
      () => b.client.certificate.startVerification.mutate({ id: one.id }),
      () => b.client.certificate.retryVerification.mutate({ id: one.id }),
      () => b.client.certificate.byId.query({ id: 'c_doesnotexist0000' }),
    ]) {
      const e = await rejects(call());
      expect(code(e)).toBe('NOT_FOUND');
      expect(e.message).toBe('Certificate not found');
    }
    // The live status stream is the owner's only, too.
    const subErr = await new Promise<unknown>((resolve) => {
      const sub = b.client.certificate.onStatus.subscribe({ id: one.id }, { onData: () => resolve(new Error('got data')), onError: (e) => { sub.unsubscribe(); resolve(e); } });
      setTimeout(() => resolve(new Error('no error')), 10_000);
    });
    expect(subErr).toBeInstanceOf(TRPCClientError);
    expect(code(subErr as TRPCClientError<never>)).toBe('NOT_FOUND');
    // Before verification the file is the owner's only.
    const other = await b.fetch(one.certificate_url);
    const st = (await a.client.certificate.byId.query({ id: one.id })).verification_status;
    if (st !== 'verified') expect(other.status).toBe(404);

    // The same file cannot be claimed by another wallet, nor twice by the same one.
    const pdf = await goodPdf();
    const dup = await a.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'dup.pdf' }));
    // Its verification first: a verdict landing between the two footprints would be counted as a write.
    await waitFor(async () => (await a.client.certificate.byId.query({ id: dup.id })).verification_status !== 'pending');
    const before = await footprint(server);
    const dupOther = await rejects(b.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'dup.pdf' })));
    expect(code(dupOther)).toBe('CONFLICT');
    expect(dupOther.message).toBe(MESSAGES.alreadyRegisteredByOther);
    // Another wallet learns nothing of whose it is: no certificate id.
    expect((dupOther.data as { certificateId?: string } | undefined)?.certificateId).toBeUndefined();
    const dupSame = await rejects(a.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'dup.pdf' })));
    expect(dupSame.message).toBe(MESSAGES.alreadyAdded);
    // Its owner is offered the certificate they already added (trying again cannot help).
    expect((dupSame.data as { certificateId?: string } | undefined)?.certificateId).toBe(dup.id);
    const after = await footprint(server);
    expect(after).toEqual(before);
  });

  it('bad input gets a clear error and writes nothing (no row, no blob, no chain record)', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    const pdf = await goodPdf();
    const png = await makeImage('png');
    const truncated = pdf.subarray(0, Math.floor(pdf.length / 2));
    const cases: [FormData | unknown, string, RegExp | string][] = [
      [certForm({ ...claims, title: '   ' }, { bytes: pdf, name: 'a.pdf' }), 'BAD_REQUEST', MESSAGES.titleRequired],
      [certForm({ ...claims, institution_name: '' }, { bytes: pdf, name: 'a.pdf' }), 'BAD_REQUEST', MESSAGES.institutionRequired],
      [certForm({ ...claims, program_name: ' \t ' }, { bytes: pdf, name: 'a.pdf' }), 'BAD_REQUEST', MESSAGES.programRequired],
      [certForm({ ...claims, issue_date: '' }, { bytes: pdf, name: 'a.pdf' }), 'BAD_REQUEST', MESSAGES.issueDateRequired],
      [certForm({ ...claims, issue_date: '2024-02-31' }, { bytes: pdf, name: 'a.pdf' }), 'BAD_REQUEST', /valid|date/i],
      [certForm(claims), 'BAD_REQUEST', MESSAGES.fileRequired],
      [certForm(claims, { bytes: new Uint8Array(0), name: 'empty.pdf' }), 'BAD_REQUEST', MESSAGES.fileRequired],
      [certForm(claims, { bytes: new Uint8Array(12 * 1024 * 1024).fill(37), name: 'big.pdf' }), 'BAD_REQUEST', /10 MB/],
      [certForm(claims, { bytes: png, name: 'renamed.pdf', type: 'application/pdf' }), 'BAD_REQUEST', /named \.pdf but its content is a PNG image/],
      [certForm(claims, { bytes: truncated, name: 'cut.pdf' }), 'BAD_REQUEST', /damaged|incomplete/],
      [certForm(claims, { bytes: new TextEncoder().encode('hello, I am not a PDF'), name: 'x.pdf' }), 'BAD_REQUEST', /./],
      [{ title: 'not a form' }, 'BAD_REQUEST', /multipart/],
    ];
    const before = await footprint(server);
    for (const [input, expectedCode, msg] of cases) {
      const e = await rejects(c.client.certificate.create.mutate(input as FormData));
      expect(code(e), String(msg)).toBe(expectedCode);
      if (typeof msg === 'string') expect(e.message).toBe(msg);
      else expect(e.message).toMatch(msg);
    }
    expect(await footprint(server)).toEqual(before);

    // Signed out: nothing either.
    const anon = makeClient(server.url);
    expect(code(await rejects(anon.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'a.pdf' }))))).toBe('UNAUTHORIZED');
    expect(await footprint(server)).toEqual(before);
  });
});

describe('create is all or nothing', () => {
  it('a failure after the blob write and the chain write leaves no row, no blob and no chain record', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    const chain = server.services.chain;
    const pdf = await goodPdf();
    const before = await footprint(server);
    // A real database failure after the anchor transaction (its accounts and row are written in the
    // same DB transaction): the rows, the blob and the in-process chain state must all roll back.
    const db = server.services.db;
    if (isPostgres(db)) {
      await sql`CREATE FUNCTION fail_after_anchor() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated failure after anchoring'; END $$`.execute(db);
      await sql`CREATE TRIGGER fail_after_anchor BEFORE UPDATE OF anchor_signature ON certificate FOR EACH ROW EXECUTE FUNCTION fail_after_anchor()`.execute(db);
    } else {
      await sql`CREATE TRIGGER fail_after_anchor BEFORE UPDATE OF anchor_signature ON certificate BEGIN SELECT RAISE(ABORT, 'simulated failure after anchoring'); END`.execute(db);
    }
    try {
      const e = await rejects(c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'r.pdf' })));
      expect(code(e)).toBe('INTERNAL_SERVER_ERROR');
    } finally {
      if (isPostgres(db)) {
        await sql`DROP TRIGGER fail_after_anchor ON certificate`.execute(db);
        await sql`DROP FUNCTION fail_after_anchor()`.execute(db);
      } else await sql`DROP TRIGGER fail_after_anchor`.execute(db);
    }
    expect(await footprint(server)).toEqual(before);
    expect(await chain.readCertificate(Buffer.from(sha(pdf), 'hex'))).toBeNull();
    // And the same file can then be added normally.
    const ok = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'r.pdf' }));
    expect(ok.sha256).toBe(sha(pdf));
  });
});

describe('pipeline failures', () => {
  it('a step that throws (chain unavailable) is retried with backoff and finishes without duplicate log entries', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    const chain = server.services.chain;
    const real = chain.recordVerification.bind(chain);
    // Each hash fails once (other tests' jobs may be running too).
    const failedOnce = new Set<string>();
    chain.recordVerification = async (...args) => {
      const key = Buffer.from(args[0].hash).toString('hex');
      if (!failedOnce.has(key)) {
        failedOnce.add(key);
        throw new Error('RPC unavailable (simulated)');
      }
      return real(...args);
    };
    try {
      const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: await goodPdf(), name: 'retry.pdf' }));
      const done = await waitFor(async () => {
        const r = await c.client.certificate.byId.query({ id: cert.id });
        return r.verification_status !== 'pending' && r;
      }, 20_000);
      expect(done.verification_status).toBe('verified');
      const jobs = await server.services.db.selectFrom('verification_job').selectAll().where('certificate_id', '=', cert.id).execute();
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ status: 'done', attempts: 2, last_error: null });
      const steps = (await c.client.certificate.logs.query({ id: cert.id })).map((l) => l.verification_step);
      expect(steps).toEqual(['hash_verification', 'document_checks', 'issuer_verification', 'chain_record']);
    } finally {
      chain.recordVerification = real;
    }
  });
});

describe('public verification', () => {
  it('verifies by id, by hash and by file; a tampered file shows both hashes', async () => {
    const c = makeClient(server.url);
    await signIn(c);
    await c.client.profile.update.mutate({ full_name: 'Grace Hopper', email: 'grace@example.com' });
    const pdf = await goodPdf('Grace Hopper');
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'g.pdf' }));
    await waitFor(async () => (await c.client.certificate.byId.query({ id: cert.id })).verification_status === 'verified');

    const anon = makeClient(server.url).client;
    const view = await anon.public.view.query({ userId: cert.user_id, certificateId: cert.id });
    expect(view).toMatchObject({ holder_name: 'Grace Hopper', title: claims.title, verification_status: 'verified' });
    expect(JSON.stringify(view)).not.toContain('grace@example.com');
    expect(code(await rejects(anon.public.view.query({ userId: 'u_someoneelse', certificateId: cert.id })))).toBe('NOT_FOUND');

    const byId = await anon.public.verifyById.query({ certificateId: cert.id });
    expect(byId).toMatchObject({ valid: true, status: 'verified', tier: 'platform_verified', holder_wallet: cert.holder_wallet, integrity: 'not_checked' });
    expect(byId.verifier).toBe(server.services.chain.operator.toBase58());
    expect(byId.transactions.map((t) => t.kind)).toEqual(['anchor_certificate', 'record_verification']);
    expect(byId.anchored_at).toBeTruthy();

    const byHash = await anon.public.verifyByHash.query({ sha256: cert.sha256.toUpperCase() });
    expect(byHash).toMatchObject({ valid: true, status: 'verified', sha256: cert.sha256 });
    // The plain REST route gives the same verdict.
    const rest = await (await fetch(`${server.url}/api/v1/verify/hash/${cert.sha256}`)).json();
    expect(rest).toMatchObject({ valid: true, status: 'verified', sha256: cert.sha256, record_address: byHash.record_address, certificate: { id: cert.id } });
    expect(Date.parse(rest.checked_at)).toBeGreaterThan(0);
    const restBad = await fetch(`${server.url}/api/v1/verify/hash/nothex`);
    expect(restBad.status).toBe(400);
    expect((await restBad.json()).error.message).toMatch(/64 hexadecimal/);
    const unknown = await anon.public.verifyByHash.query({ sha256: 'ab'.repeat(32) });
    expect(unknown).toMatchObject({ valid: false, status: 'not_found', certificate: null });
    expect(code(await rejects(anon.public.verifyByHash.query({ sha256: 'xyz' })))).toBe('BAD_REQUEST');
    const nf = await rejects(anon.public.verifyById.query({ certificateId: 'nope' }));
    expect(code(nf)).toBe('NOT_FOUND');
    expect(nf.message).toBe(MESSAGES.verificationIdNotFound);

    const fd = new FormData();
    fd.set('file', new File([pdf as BlobPart], 'g.pdf'));
    expect(await anon.public.verifyFile.mutate(fd)).toMatchObject({ valid: true, integrity: 'match', status: 'verified' });

    const tampered = Uint8Array.from(pdf);
    tampered[Math.floor(tampered.length / 2)] ^= 0xff;
    const fd2 = new FormData();
    fd2.set('file', new File([tampered as BlobPart], 'g.pdf'));
    fd2.set('certificateId', cert.id);
    const bad = await anon.public.verifyFile.mutate(fd2);
    expect(bad).toMatchObject({ valid: false, integrity: 'mismatch', expected_sha256: cert.sha256, actual_sha256: sha(tampered) });
    const fd3 = new FormData();
    fd3.set('file', new File([tampered as BlobPart], 'g.pdf'));
    expect(await anon.public.verifyFile.mutate(fd3)).toMatchObject({ valid: false, status: 'not_found' });
  });
});

// Institutions in the product (issue 14), server side: roles, registration, domain proof (real DNS and
// HTTPS peers on loopback), approval, issue, confirmation requests, decline, revocation, the operator
// console and the append-only audit log; the refusals an attacker meets.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { confirmCertificateIx, issueCertificateIx, requestConfirmationIx, revokeCertificateIx } from '../../shared/program/instructions';
import { findBySha256 } from '../src/db/certificates';
import { appendEvent } from '../src/db/events';
import { reconcileCertificate } from '../src/services/chain-sync/reconcile';
import { fromHex } from '../../shared/program/codec';
import { ReasonCode } from '../../shared/program/reasons';
import { ALL_WALLET_FLOWS } from '../src/services/issuers/flows';
import { recheckDomains } from '../src/services/issuers/profile';
import { REUSE_MIN_LEFT_MS, settleActions } from '../src/services/wallet-tx/actions';
import { certForm, makePdf, newWallet, refusal, TEST_HOLDER_NAME, waitFor } from './helpers';
import { checkedHolderName, parseVerificationDetails } from '../../shared/schemas/details';
import { approvedInstitution, ask, buildInstitutionWorld, holderWithCertificate, issueForm, signed, signedByImpostor, type Browser, type InstitutionWorld } from './institutions-support/world';
import sharp from 'sharp';

let w: InstitutionWorld;
let north: Browser; // approved, proven: Northfield University
let south: Browser; // approved, proven: Southfield College

const db = () => w.server.services.db;
const row = (id: string) => db().selectFrom('certificate').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  w = await buildInstitutionWorld();
  north = await approvedInstitution(w, 'Northfield University', 'northfield.test');
  south = await approvedInstitution(w, 'Southfield College', 'southfield.test');
}, 120_000);
afterAll(async () => {
  await w?.close();
});

describe('roles', () => {
  it('auth.me says who is an issuer (on-chain account) and who is an operator (configuration)', async () => {
    expect((await w.operator.client.auth.me.query())?.roles).toEqual({ issuer: null, operator: true });
    expect((await north.client.auth.me.query())?.roles).toEqual({ issuer: { authority: north.wallet.address, name: 'Northfield University', domain: 'northfield.test', status: 'approved' }, operator: false });
    const stranger = await w.browser();
    expect((await stranger.client.auth.me.query())?.roles).toEqual({ issuer: null, operator: false });
  });

  it('a wallet not in ATTESTA_OPERATOR_WALLETS is a stranger to the console, even the server’s own key', async () => {
    const stranger = await w.browser();
    await expect(stranger.client.operator.issuers.query()).rejects.toMatchObject(refusal('FORBIDDEN', /not an operator/));
    await expect(stranger.client.operator.setStatus.mutate({ authority: north.wallet.address, status: 'suspended' })).rejects.toMatchObject(refusal('FORBIDDEN'));
    await expect(north.client.operator.audit.query()).rejects.toMatchObject(refusal('FORBIDDEN'));
    expect(w.server.services.config.institutions.operatorWallets.has(w.server.services.chain.operator.toBase58())).toBe(false);
  });

  it('a holder cannot use the portal: not a registered institution', async () => {
    const holder = await w.browser();
    expect(await holder.client.issuer.me.query()).toBeNull();
    await expect(holder.client.issuer.requests.query()).rejects.toMatchObject(refusal('FORBIDDEN', /not a registered institution/));
    await expect(holder.client.issuer.checkDomain.mutate()).rejects.toMatchObject(refusal('FORBIDDEN'));
  });
});

describe('registration, domain proof and approval', () => {
  it('registers pending, says what to publish, proves by HTTPS, and is approved only once proven', { timeout: 60_000 }, async () => {
    const inst = await w.browser();
    await expect(inst.client.issuer.register.mutate({ name: 'Eastfield', domain: 'localhost' })).rejects.toMatchObject(refusal('BAD_REQUEST', /full domain/));
    await expect(inst.client.issuer.register.mutate({ name: 'É'.repeat(40), domain: 'eastfield.test' })).rejects.toMatchObject(refusal('BAD_REQUEST', /64 bytes/));
    const prepared = await inst.client.issuer.register.mutate({ name: 'Eastfield Institute', domain: 'https://Northfield.Test/' });
    // Another wallet cannot submit it; the institution's own wallet must sign it.
    const intruder = await w.browser();
    await expect(intruder.client.issuer.submit.mutate({ signedTransaction: signed(prepared, inst) })).rejects.toMatchObject(refusal('BAD_REQUEST', /not a transaction the server prepared/));
    await expect(inst.client.issuer.submit.mutate({ signedTransaction: signedByImpostor(prepared, inst.keypair, intruder.keypair) })).rejects.toMatchObject(refusal('BAD_REQUEST', /not signed by the wallet/));
    const r = await inst.client.issuer.submit.mutate({ signedTransaction: signed(prepared, inst) });
    expect(r.kind).toBe('register_issuer');
    const me = await inst.client.issuer.me.query();
    expect(me).toMatchObject({ name: 'Eastfield Institute', domain: 'northfield.test', status: 'pending', proof: { status: 'unproven' } });
    expect(me!.proof.publish.dns).toEqual({ name: '_attesta.northfield.test', type: 'TXT', value: `attesta-issuer=${inst.wallet.address}` });
    await expect(inst.client.issuer.register.mutate({ name: 'Again', domain: 'eastfield.test' })).rejects.toMatchObject(refusal('CONFLICT', /already registered/));

    // Not proven: the operator cannot approve; a pending issuer cannot issue.
    await expect(w.operator.client.operator.setStatus.mutate({ authority: inst.wallet.address, status: 'approved' })).rejects.toMatchObject(refusal('PRECONDITION_FAILED', /not proven/));
    const pdf = await makePdf(['Eastfield Institute', 'Diploma']);
    await expect(inst.client.issuer.issue.mutate(issueForm({ title: 'Diploma', program_name: 'Law', issue_date: '2025-06-01', holder_wallet: newWallet().address }, pdf))).rejects.toMatchObject(
      refusal('FORBIDDEN', /not approved yet/),
    );

    // The check fails and says what each method found; the well-known file then proves it.
    const failed = await inst.client.issuer.checkDomain.mutate();
    expect(failed.proof.status).toBe('unproven');
    expect(failed.proof.findings.map((f) => f.method)).toEqual(['dns', 'https']);
    expect(failed.proof.findings[0].detail).toContain(`attesta-issuer=${inst.wallet.address}`);
    w.site.routes.set('/.well-known/attesta-issuer.json', { status: 200, body: JSON.stringify({ authority: inst.wallet.address }) });
    const proven = await inst.client.issuer.checkDomain.mutate();
    expect(proven.proof).toMatchObject({ status: 'proven', method: 'https' });

    const pending = await w.operator.client.operator.issuers.query({ status: 'pending' });
    expect(pending.map((i) => i.authority)).toEqual([inst.wallet.address]);
    const approved = await w.operator.client.operator.setStatus.mutate({ authority: inst.wallet.address, status: 'approved' });
    expect(approved.status).toBe('approved');
    await expect(w.operator.client.operator.setStatus.mutate({ authority: inst.wallet.address, status: 'approved' })).rejects.toMatchObject(refusal('CONFLICT', /already approved/));
    // A proof that fails a later check lapses.
    w.site.routes.delete('/.well-known/attesta-issuer.json');
    expect((await inst.client.issuer.checkDomain.mutate()).proof.status).toBe('lapsed');
    await expect(inst.client.issuer.issue.mutate(issueForm({ title: 'Diploma', program_name: 'Law', issue_date: '2025-06-01', holder_wallet: newWallet().address }, pdf))).rejects.toMatchObject(
      refusal('PRECONDITION_FAILED', /lapsed.*_attesta\.northfield\.test/),
    );
    // Suspended: cannot issue either.
    await w.operator.client.operator.setStatus.mutate({ authority: inst.wallet.address, status: 'suspended' });
    await expect(inst.client.issuer.issue.mutate(issueForm({ title: 'Diploma', program_name: 'Law', issue_date: '2025-06-01', holder_wallet: newWallet().address }, pdf))).rejects.toMatchObject(
      refusal('FORBIDDEN', /suspended/),
    );
  });
});

describe('issue', () => {
  it('issues to a holder’s wallet: verified and issuer-confirmed at once; an earlier claim of the file is superseded', { timeout: 90_000 }, async () => {
    const holder = await w.browser();
    const squatter = await w.browser();
    const claims = { title: 'Bachelor of Science', institution_name: 'Northfield University', program_name: 'Physics', issue_date: '2025-06-01' };
    const pdf = await makePdf([claims.institution_name, claims.title, claims.program_name]);
    const squatted = await squatter.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'diploma.pdf', type: 'application/pdf' }));

    const form = (holder_wallet: string, extra: Record<string, string> = {}) => issueForm({ title: claims.title, program_name: claims.program_name, issue_date: claims.issue_date, holder_wallet, ...extra }, pdf);
    await expect(north.client.issuer.issue.mutate(form('not-a-wallet'))).rejects.toMatchObject(refusal('BAD_REQUEST', /not a valid Solana address/));
    await expect(north.client.issuer.issue.mutate(form(holder.wallet.address, { expires_on: '2020-01-01' }))).rejects.toMatchObject(refusal('BAD_REQUEST', /future/));

    const prepared = await north.client.issuer.issue.mutate(form(holder.wallet.address, { expires_on: '2099-12-31' }));
    // Another institution cannot send what Northfield prepared.
    await expect(south.client.issuer.submit.mutate({ signedTransaction: signed(prepared, north) })).rejects.toMatchObject(refusal('BAD_REQUEST', /not a transaction the server prepared/));
    const t0 = Date.now();
    const done = await north.client.issuer.submit.mutate({ signedTransaction: signed(prepared, north) });
    const ms = Date.now() - t0;
    const id = (done.result as { certificate_id: string }).certificate_id;

    const list = await holder.client.certificate.list.query();
    expect(list.map((c) => c.id)).toEqual([id]);
    expect(list[0]).toMatchObject({ ...claims, verification_status: 'verified', tier: 'issuer_confirmed', holder_wallet: holder.wallet.address });
    expect(list[0].verification_details?.reason).toMatch(/^Issued by Northfield University \(northfield\.test, domain proven\): its own key signed the record/);
    expect(await row(id)).toMatchObject({ issuer_authority: north.wallet.address, claims_confirmed: 1 });
    // What a verifier reads: the institution, its domain and that it is proven.
    const verdict = await w.operator.client.public.verifyByHash.query({ sha256: list[0].sha256 });
    expect(verdict).toMatchObject({ valid: true, note: null, tier: 'issuer_confirmed', issuer: { authority: north.wallet.address, name: 'Northfield University', domain: 'northfield.test', domain_proven: true, status: 'approved' } });
    const record = await w.server.services.chain.readCertificate(fromHex(list[0].sha256));
    expect(record?.issuer?.toBase58()).toBe(north.wallet.address);
    expect(Number(record?.expiresAt)).toBe(Date.parse('2099-12-31T23:59:59Z') / 1000);

    // Its history is the institution's issue (who, what, when, the transaction): no platform run pretends to it.
    expect(await holder.client.certificate.attempts.query({ id })).toEqual([]);
    const issuedEvents = await holder.client.certificate.events.query({ id });
    expect(issuedEvents).toEqual([
      expect.objectContaining({ kind: 'issued', source: 'attesta', signature: done.signature, claims_confirmed: true, actor: { role: 'issuer', wallet: north.wallet.address, name: 'Northfield University', domain: 'northfield.test' } }),
    ]);
    expect(issuedEvents[0].message).toMatch(/^Issued by Northfield University \(northfield\.test, domain proven\): its own key signed the record on .*\. It issued the details “Bachelor of Science”, Physics, Northfield University, 2025-06-01 to this wallet\.$/);

    // The squatter's earlier claim ends visibly, naming who issued it to whom.
    const old = await squatter.client.certificate.byId.query({ id: squatted.id });
    expect(old.verification_status).toBe('superseded');
    expect(old.verification_details?.reason).toContain('Northfield University issued this file to another wallet');
    expect((await squatter.client.certificate.events.query({ id: squatted.id })).at(-1)).toMatchObject({ kind: 'superseded', source: 'attesta', signature: done.signature, actor: { role: 'issuer', name: 'Northfield University' } });

    const mine = await north.client.issuer.certificates.query({ search: 'physics' });
    expect(mine.certificates.map((c) => c.id)).toEqual([id]);
    expect(mine.counts).toMatchObject({ total: 1, verified: 1 });
    expect((await south.client.issuer.certificates.query()).certificates).toEqual([]);
    // The same file again: the institution's word is not overwritten.
    await expect(south.client.issuer.issue.mutate(form(newWallet().address))).rejects.toMatchObject(refusal('CONFLICT', /already issued or confirmed by Northfield University/));
    console.log(`issue submit → visible: ${ms} ms`);
  });
});

describe('issue: the same file issued again after a revoke', () => {
  // An earlier claim superseded by a transaction this server did not send (found by the chain follower's
  // backstop, which reads the record and not the transaction: its entry has no signature) stays that
  // transaction's when the institution later revokes the file and issues it again through Attesta.
  it('leaves the earlier supersede entry as the follower wrote it; the new issue names only its own', { timeout: 90_000 }, async () => {
    const squatter = await w.browser();
    const claims = { title: 'Diploma in Glassmaking', institution_name: 'Northfield University', program_name: 'Glass', issue_date: '2025-03-01' };
    const pdf = await makePdf([claims.institution_name, claims.title, claims.program_name]);
    const squatted = await squatter.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'glass.pdf', type: 'application/pdf' }));
    const hash = fromHex(squatted.sha256);
    const chain = w.server.services.chain;

    // Northfield issues the file to one wallet with its own tools, and revokes it: the follower does not
    // watch these sends, its backstop reconciles the row afterwards (no transaction known to it).
    const first = newWallet().address;
    const issueTx = new Transaction().add(issueCertificateIx(chain.programId, { hash, holder: new PublicKey(first), authority: north.keypair.publicKey, payer: chain.operator, expiresAt: 0n }));
    await chain.sendTransaction(issueTx, [north.keypair], { kind: 'issue_elsewhere' });
    await reconcileCertificate(w.server.services, squatted.sha256);
    const superseded = (await squatter.client.certificate.events.query({ id: squatted.id })).at(-1);
    expect(superseded).toMatchObject({ kind: 'superseded', source: 'chain', signature: null });
    await chain.sendTransaction(new Transaction().add(revokeCertificateIx(chain.programId, { hash, authority: north.keypair.publicKey, reasonCode: ReasonCode.RevokedSuperseded })), [north.keypair], { kind: 'revoke_elsewhere' });

    // Then it issues the file again, to another wallet, through Attesta.
    const rightful = await w.browser();
    const prepared = await north.client.issuer.issue.mutate(issueForm({ title: claims.title, program_name: claims.program_name, issue_date: claims.issue_date, holder_wallet: rightful.wallet.address }, pdf));
    const done = await north.client.issuer.submit.mutate({ signedTransaction: signed(prepared, north) });
    const id = (done.result as { certificate_id: string }).certificate_id;
    expect((await rightful.client.certificate.events.query({ id })).map((e) => [e.kind, e.signature])).toEqual([['issued', done.signature]]);
    // The squatter's history still says what superseded it then: no signature, not this issue's.
    expect(await squatter.client.certificate.events.query({ id: squatted.id })).toEqual(expect.arrayContaining([superseded]));
    const entries = await db().selectFrom('certificate_event').select(['signature', 'source']).where('certificate_id', '=', squatted.id).where('kind', '=', 'superseded').execute();
    expect(entries).toEqual([{ signature: null, source: 'chain' }]);
  });

  it('takes over the entry the follower wrote first for this very issue (it landed, the backstop ran before the issue’s rows)', { timeout: 90_000 }, async () => {
    const squatter = await w.browser();
    const claims = { title: 'Diploma in Bookbinding', institution_name: 'Northfield University', program_name: 'Books', issue_date: '2025-04-01' };
    const pdf = await makePdf([claims.institution_name, claims.title, claims.program_name]);
    const squatted = await squatter.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'books.pdf', type: 'application/pdf' }));
    const rightful = await w.browser();
    const prepared = await north.client.issuer.issue.mutate(issueForm({ title: claims.title, program_name: claims.program_name, issue_date: claims.issue_date, holder_wallet: rightful.wallet.address }, pdf));
    // What the backstop writes when it reads the record between the landing and the issue's own rows:
    // the claim superseded, giving the record to the rightful holder, with no transaction known to it.
    const follower = (newHolder: string, at = new Date().toISOString()) =>
      appendEvent(db(), { certificate_id: squatted.id, kind: 'superseded', actor: { role: 'issuer', wallet: north.wallet.address, name: 'Northfield University' }, source: 'chain', message: `Superseded ${at}.`, details: { new_holder_wallet: newHolder }, at });
    await db().updateTable('certificate').set({ verification_status: 'superseded' }).where('id', '=', squatted.id).execute();
    await follower(rightful.wallet.address);
    await follower(newWallet().address); // naming someone else: not this issue's
    await follower(rightful.wallet.address, '2020-01-01T00:00:00.000Z'); // written before the issue was prepared: not this issue's
    const done = await north.client.issuer.submit.mutate({ signedTransaction: signed(prepared, north) });
    const entries = await db().selectFrom('certificate_event').select(['signature', 'source', 'details', 'at']).where('certificate_id', '=', squatted.id).where('kind', '=', 'superseded').execute();
    // [names the rightful holder, written before the prepare, source, signature]; two were written in the same millisecond perhaps, so sorted here.
    const said = entries.map((e) => [JSON.parse(e.details!).new_holder_wallet === rightful.wallet.address, e.at.startsWith('2020'), e.source, e.signature]);
    expect(said.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      [false, false, 'chain', null],
      [true, false, 'attesta', done.signature],
      [true, true, 'chain', null],
    ]);
  });
});

describe('issue: a file the holder already added', () => {
  // An institution's word on a holder's own upload is a confirmation, and only the holder asks for one
  // (the program refuses the issue: RecordAlreadyNamesHolder). The portal and REST say so before a
  // transaction is prepared, and write nothing.
  it('is refused up front (409) on the portal and over REST, naming the holder and what to do instead; nothing is written', { timeout: 90_000 }, async () => {
    const holder = await w.browser();
    const claims = { title: 'Master of Laws', institution_name: 'Northfield University', program_name: 'Law', issue_date: '2024-06-01' };
    const pdf = await makePdf([claims.institution_name, claims.title, claims.program_name]);
    const cert = await holder.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'llm.pdf', type: 'application/pdf' }));
    await waitFor(async () => (await holder.client.certificate.byId.query({ id: cert.id })).verification_status !== 'pending', 60_000);
    const before = await row(cert.id);
    const actions = () => db().selectFrom('wallet_action').select('id').where('user_id', '=', north.userId).execute();
    const issuedBlobs = async () => (await w.server.services.blobs.list!('issued/')).map((b) => b.key);
    const [actionsBefore, blobsBefore] = [await actions(), await issuedBlobs()];
    const short = `${holder.wallet.address.slice(0, 6)}…${holder.wallet.address.slice(-4)}`;
    const message = new RegExp(`^${short} already added this file; they can ask you to confirm it from its page \\(Request confirmation\\), then you confirm it from your requests\\.$`);

    const fields = { title: claims.title, program_name: claims.program_name, issue_date: claims.issue_date, holder_wallet: holder.wallet.address };
    await expect(north.client.issuer.issue.mutate(issueForm(fields, pdf))).rejects.toMatchObject(refusal('CONFLICT', message));
    const { key } = await north.client.apiKeys.create.mutate({ name: 'registrar' });
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    body.set('file', new File([pdf as BlobPart], 'llm.pdf', { type: 'application/pdf' }));
    const res = await fetch(`${w.server.url}/api/v1/issuer/certificates`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'conflict', message: expect.stringMatching(message) });

    expect(await actions()).toEqual(actionsBefore);
    expect(await issuedBlobs()).toEqual(blobsBefore);
    expect(await row(cert.id)).toEqual(before);
    expect((await findBySha256(db(), before.sha256)).map((r) => r.id)).toEqual([cert.id]);
    // Another wallet may still be issued the file (the earlier claim ends as superseded): only the holder's own is refused.
    const rightful = await w.browser();
    expect((await north.client.issuer.issue.mutate(issueForm({ ...fields, holder_wallet: rightful.wallet.address }, pdf))).action_id).toBeTruthy();
    // Revoked for the holder (here by the platform, for fraud): not issued back to the same wallet either.
    await w.server.services.chain.revokeCertificate({ hash: fromHex(before.sha256), reasonCode: ReasonCode.RevokedFraud }, { kind: 'revoke_certificate', certificateId: cert.id });
    await expect(north.client.issuer.issue.mutate(issueForm(fields, pdf))).rejects.toMatchObject(
      refusal('CONFLICT', new RegExp(`^${short} already holds this file and its record is revoked: a revoked certificate is not issued to the same wallet again\\.$`)),
    );
  });
});

describe('confirmation requests', () => {
  async function holderCertificate(title: string, opts: { matching?: boolean } = {}) {
    const holder = await w.browser();
    const claims = { title, institution_name: 'Northfield University', program_name: 'History', issue_date: '2024-05-01' };
    const pdf = await makePdf(opts.matching === false ? ['Lorem ipsum dolor', 'sit amet'] : [claims.institution_name, claims.title, claims.program_name]);
    const cert = await holder.client.certificate.create.mutate(certForm(claims, { bytes: pdf, name: 'c.pdf', type: 'application/pdf' }));
    await waitFor(async () => (await holder.client.certificate.byId.query({ id: cert.id })).verification_status !== 'pending', 60_000);
    return { holder, cert };
  }

  it('the holder asks; only the asked institution sees, opens and confirms it; the holder sees it at once', { timeout: 90_000 }, async () => {
    const { holder, cert } = await holderCertificate('Master of Arts');
    const options = await holder.client.certificate.issuersFor.query({ id: cert.id });
    expect(options.issuers[0]).toMatchObject({ authority: north.wallet.address, matches_claim: true, domain_proven: true });
    // Another holder cannot ask about it, nor list its institutions.
    const other = await w.browser();
    await expect(other.client.certificate.issuersFor.query({ id: cert.id })).rejects.toMatchObject(refusal('NOT_FOUND'));
    await expect(other.client.certificate.requestConfirmation.mutate({ id: cert.id, issuer: north.wallet.address, consent: true })).rejects.toMatchObject(refusal('NOT_FOUND'));
    await expect(holder.client.certificate.requestConfirmation.mutate({ id: cert.id, issuer: newWallet().address, consent: true })).rejects.toMatchObject(refusal('BAD_REQUEST', /not an approved institution/));

    const asked = await holder.client.certificate.requestConfirmation.mutate({ id: cert.id, issuer: north.wallet.address, consent: true });
    // Asked twice at once (a double click): the same prepared transaction, stored once.
    expect((await holder.client.certificate.requestConfirmation.mutate({ id: cert.id, issuer: north.wallet.address, consent: true })).action_id).toBe(asked.action_id);
    await holder.client.certificate.submitConfirmationRequest.mutate({ signedTransaction: signed(asked, holder) });
    expect(await holder.client.certificate.byId.query({ id: cert.id })).toMatchObject({ requested_issuer: north.wallet.address, claims_confirmed: false });

    const queue = await north.client.issuer.requests.query();
    const req = queue.find((r) => r.certificate_id === cert.id)!;
    expect(req).toMatchObject({ status: 'open', claims: { title: 'Master of Arts' }, holder_wallet: holder.wallet.address });
    expect((await south.client.issuer.requests.query()).some((r) => r.certificate_id === cert.id)).toBe(false);

    // Southfield cannot confirm or decline Northfield's request; a holder cannot confirm.
    await expect(south.client.issuer.confirm.mutate({ requestId: req.id })).rejects.toMatchObject(refusal('NOT_FOUND'));
    await expect(south.client.issuer.decline.mutate({ requestId: req.id, reason: 'no' })).rejects.toMatchObject(refusal('NOT_FOUND'));
    await expect(holder.client.issuer.confirm.mutate({ requestId: req.id })).rejects.toMatchObject(refusal('FORBIDDEN'));

    const updates: string[] = [];
    const ac = new AbortController();
    const sub = holder.client.certificate.onStatus.subscribe({ id: cert.id }, { onData: (e) => updates.push(`${(e as { data: { verification_status: string } }).data.verification_status}`), signal: ac.signal });
    const prepared = await north.client.issuer.confirm.mutate({ requestId: req.id });
    const t0 = Date.now();
    await north.client.issuer.submit.mutate({ signedTransaction: signed(prepared, north) });
    const ms = Date.now() - t0;
    const confirmed = await holder.client.certificate.byId.query({ id: cert.id });
    expect(confirmed).toMatchObject({ verification_status: 'verified', tier: 'issuer_confirmed', institution_name: 'Northfield University' });
    expect(confirmed.verification_details?.reason).toMatch(/^Confirmed by Northfield University \(northfield\.test, domain proven\)/);
    // The holder's name the platform's check found in the document stays said as found (not "not checked").
    expect(confirmed.verification_details).toMatchObject({ kind: 'confirmed', holder_name: TEST_HOLDER_NAME });
    expect(checkedHolderName(confirmed.verification_details ?? null)).toBe(TEST_HOLDER_NAME);
    // So does the public view (another visitor).
    const anon = await w.browser();
    const view = await anon.client.public.view.query({ userId: cert.user_id, certificateId: cert.id });
    expect(checkedHolderName(view.verification_details ?? null)).toBe(TEST_HOLDER_NAME);
    expect(await row(cert.id)).toMatchObject({ issuer_authority: north.wallet.address, requested_issuer: null, claims_confirmed: 1 });
    expect((await north.client.issuer.requests.query({ status: 'confirmed' })).map((r) => r.id)).toContain(req.id);
    await expect(north.client.issuer.confirm.mutate({ requestId: req.id })).rejects.toMatchObject(refusal('CONFLICT', /already confirmed/));
    // The history: the platform's run keeps its own outcome (checked by Attesta), and the request and the
    // institution's confirmation are entries of their own, with who, when and the transaction.
    expect((await holder.client.certificate.attempts.query({ id: cert.id })).map((a) => a.outcome)).toEqual(['verified']);
    const events = await holder.client.certificate.events.query({ id: cert.id });
    expect(events.map((e) => [e.kind, e.actor.role, e.source])).toEqual([
      ['confirmation_requested', 'holder', 'attesta'],
      ['confirmed', 'issuer', 'attesta'],
    ]);
    expect(events[0]).toMatchObject({ signature: expect.any(String), claims: { title: 'Master of Arts', institution_name: 'Northfield University' } });
    expect(events[1]).toMatchObject({ signature: (await row(cert.id)).verify_signature, claims_confirmed: true, actor: { wallet: north.wallet.address, name: 'Northfield University', domain: 'northfield.test' } });
    expect(events[1].message).toMatch(/^Confirmed by Northfield University \(northfield\.test, domain proven\): its own key signed the record on .*\. It confirmed the details it was shown: “Master of Arts”, History, Northfield University, 2024-05-01\.$/);
    await waitFor(async () => updates.length >= 2);
    ac.abort();
    sub.unsubscribe();
    console.log(`confirm submit → visible: ${ms} ms`);
  });

  it('a blank scan the institution confirmed: its run stays "awaiting confirmation", the confirmation is an entry of its own (app and REST alike)', { timeout: 90_000 }, async () => {
    const claims = { title: 'Diploma in Nursing', institution_name: 'Northfield University', program_name: 'Nursing', issue_date: '2023-09-01' };
    const blank = new Uint8Array(await sharp({ create: { width: 900, height: 640, channels: 3, background: '#fbfaf5' } }).png().toBuffer());
    const { holder, cert } = await holderWithCertificate(w, claims, { file: { bytes: blank, name: 'scan.png', type: 'image/png' } });
    expect(cert.verification_details).toMatchObject({ state: 'awaiting_confirmation' });
    const req = await ask(holder, cert.id, north);
    await north.client.issuer.submit.mutate({ signedTransaction: signed(await north.client.issuer.confirm.mutate({ requestId: req.id }), north) });
    expect(await holder.client.certificate.byId.query({ id: cert.id })).toMatchObject({ verification_status: 'verified', tier: 'issuer_confirmed', claims_confirmed: true, public_valid: true });
    // The platform's run read nothing: it says so still, never "verified".
    const attempts = await holder.client.certificate.attempts.query({ id: cert.id });
    expect(attempts.map((a) => a.outcome)).toEqual(['awaiting_confirmation']);
    expect(attempts[0].logs.find((l) => l.verification_step === 'document_checks')).toMatchObject({ status: 'pending' });
    const events = await holder.client.certificate.events.query({ id: cert.id });
    expect(events.map((e) => e.kind)).toEqual(['confirmation_requested', 'confirmed']);

    // REST returns the same log: the run's steps, and the entries with who and the transaction.
    const { key } = await holder.client.apiKeys.create.mutate({ name: 'history' });
    const res = await fetch(`${w.server.url}/api/v1/verify/status/${cert.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; verification_logs: { verification_step: string; status: string; details: Record<string, unknown>; actor?: Record<string, unknown>; signature?: string | null; created_at: string }[] };
    expect(body.status).toBe('verified');
    const steps = body.verification_logs.map((l) => l.verification_step);
    expect(steps).toEqual(expect.arrayContaining(['hash_verification', 'document_checks', 'confirmation_requested', 'confirmed']));
    expect(steps.indexOf('confirmed')).toBe(steps.length - 1); // oldest first
    expect(body.verification_logs.at(-1)).toMatchObject({
      status: 'success',
      signature: events[1].signature,
      actor: { role: 'issuer', wallet: north.wallet.address, name: 'Northfield University', domain: 'northfield.test' },
      details: { message: events[1].message, claims_confirmed: true, source: 'attesta' },
    });
    expect(body.verification_logs.find((l) => l.verification_step === 'document_checks')).toMatchObject({ status: 'pending' });
  });

  it('a second click after the chain made a new blockhash gets the same transaction; with other rows to write, near its expiry or once sent, a new one', { timeout: 90_000 }, async () => {
    const { holder, cert } = await holderCertificate('Master of Science');
    const ask = () => holder.client.certificate.requestConfirmation.mutate({ id: cert.id, issuer: north.wallet.address, consent: true });
    const first = await ask();
    // The embedded chain makes a new blockhash at most once a slot (400 ms), when one is asked for.
    await new Promise((r) => setTimeout(r, 450));
    const again = await ask();
    const { blockhash: now } = await w.server.services.chain.signingBlockhash();
    expect(Transaction.from(Buffer.from(first.transaction, 'base64')).recentBlockhash).not.toBe(now); // the chain did move on
    expect(again).toEqual(first); // the same action, the same bytes to sign (the operator's signature included)
    expect(await db().selectFrom('wallet_action').select('id').where('certificate_id', '=', cert.id).where('kind', '=', 'request_confirmation').execute()).toHaveLength(1);

    // Too little time left to sign it: a new transaction, a new action.
    await db().updateTable('wallet_action').set({ expires_at: Date.now() + REUSE_MIN_LEFT_MS / 2 }).where('id', '=', first.action_id).execute();
    const fresh = await ask();
    expect(fresh.action_id).not.toBe(first.action_id);

    // The same instructions with other rows to write (an institution corrected the title it issues):
    // another intent, never the earlier action with the old title.
    const pdf = await makePdf(['Northfield University', 'Doctor of Arts', 'History']);
    const issue = (title: string) => north.client.issuer.issue.mutate(issueForm({ title, program_name: 'History', issue_date: '2024-05-01', holder_wallet: holder.wallet.address }, pdf));
    const typo = await issue('Doctr of Arts');
    await new Promise((r) => setTimeout(r, 450));
    const corrected = await issue('Doctor of Arts');
    expect(corrected.action_id).not.toBe(typo.action_id);
    const payload = await db().selectFrom('wallet_action').select('payload').where('id', '=', corrected.action_id).executeTakeFirstOrThrow();
    expect(JSON.parse(payload.payload).claims.title).toBe('Doctor of Arts');

    // Sent: asking again is a new request, not the one already on its way.
    await holder.client.certificate.submitConfirmationRequest.mutate({ signedTransaction: signed(fresh, holder) });
    await new Promise((r) => setTimeout(r, 450));
    const next = await ask();
    expect([first.action_id, fresh.action_id]).not.toContain(next.action_id);
  });

  it('a confirmation sent outside the product (through /rpc) is followed: the row and the request say confirmed', { timeout: 90_000 }, async () => {
    const { holder, cert } = await holderCertificate('Bachelor of Music');
    const asked = await holder.client.certificate.requestConfirmation.mutate({ id: cert.id, issuer: north.wallet.address, consent: true });
    await holder.client.certificate.submitConfirmationRequest.mutate({ signedTransaction: signed(asked, holder) });
    const chain = w.server.services.chain;
    // The institution pays its own fee and sends confirm_certificate with its own tools.
    await chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: north.keypair.publicKey, lamports: LAMPORTS_PER_SOL })), [], { kind: 'airdrop' });
    const tx = new Transaction({ feePayer: north.keypair.publicKey, recentBlockhash: await chain.latestBlockhash() }).add(confirmCertificateIx(chain.programId, { hash: fromHex(cert.sha256), authority: north.keypair.publicKey }));
    tx.sign(north.keypair);
    const res = await fetch(`${w.server.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [tx.serialize().toString('base64'), { encoding: 'base64' }] }) });
    const sent = await res.json();
    expect(sent.error).toBeUndefined();
    await w.server.chainSync.idle();
    // Followed from the chain: an entry of its own, with the transaction the follower applied; its word covers the file.
    const followed = await waitFor(async () => (await holder.client.certificate.events.query({ id: cert.id })).find((e) => e.kind === 'confirmed'));
    expect(followed).toMatchObject({ source: 'chain', signature: sent.result, claims_confirmed: false, actor: { role: 'issuer', wallet: north.wallet.address, name: 'Northfield University' } });
    const r = await waitFor(async () => {
      const x = await row(cert.id);
      return x.tier === 'issuer_confirmed' && x;
    });
    expect(r).toMatchObject({ verification_status: 'verified', issuer_authority: north.wallet.address, requested_issuer: null });
    expect(checkedHolderName(parseVerificationDetails(r.verification_details))).toBe(TEST_HOLDER_NAME);
    const q = await db().selectFrom('confirmation_request').select('status').where('certificate_id', '=', cert.id).executeTakeFirstOrThrow();
    expect(q.status).toBe('confirmed');
    expect((await north.client.issuer.certificates.query()).certificates.map((c) => c.id)).toContain(cert.id);
  });

  it('a request sent outside the product (through /rpc, signed by the holder) reaches the institution’s queue', { timeout: 90_000 }, async () => {
    const { holder, cert } = await holderCertificate('Bachelor of Dance');
    const chain = w.server.services.chain;
    await chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: holder.keypair.publicKey, lamports: LAMPORTS_PER_SOL })), [], { kind: 'airdrop' });
    const tx = new Transaction({ feePayer: holder.keypair.publicKey, recentBlockhash: await chain.latestBlockhash() }).add(
      requestConfirmationIx(chain.programId, { hash: fromHex(cert.sha256), holder: holder.keypair.publicKey, issuerAuthority: north.keypair.publicKey }),
    );
    tx.sign(holder.keypair);
    const res = await fetch(`${w.server.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [tx.serialize().toString('base64'), { encoding: 'base64' }] }) });
    expect((await res.json()).error).toBeUndefined();
    await w.server.chainSync.idle();
    const req = await waitFor(async () => (await north.client.issuer.requests.query()).find((r) => r.certificate_id === cert.id));
    expect(req).toMatchObject({ status: 'open', claims: { title: 'Bachelor of Dance' } });
    expect(await row(cert.id)).toMatchObject({ requested_issuer: north.wallet.address });
    // Answered once, it is not reopened by the follower's later passes.
    await north.client.issuer.decline.mutate({ requestId: req.id, reason: 'Not ours.' });
    await reconcileCertificate(w.server.services, cert.sha256);
    expect((await north.client.issuer.requests.query()).some((r) => r.certificate_id === cert.id)).toBe(false);
  });

  it('declines with a reason the holder reads; nothing on chain; the file is served to the asked institution only while asked', { timeout: 90_000 }, async () => {
    const { holder, cert } = await holderCertificate('Doctor of Philosophy', { matching: false });
    expect((await row(cert.id)).verification_status).toBe('rejected'); // not public: only its holder reads the file
    const asked = await holder.client.certificate.requestConfirmation.mutate({ id: cert.id, issuer: north.wallet.address, consent: true });
    await holder.client.certificate.submitConfirmationRequest.mutate({ signedTransaction: signed(asked, holder) });
    const req = (await north.client.issuer.requests.query()).find((r) => r.certificate_id === cert.id)!;
    expect((await north.fetch(req.file_url!)).status).toBe(200);
    expect((await south.fetch(req.file_url!)).status).toBe(404);
    await expect(north.client.issuer.decline.mutate({ requestId: req.id, reason: '' })).rejects.toMatchObject(refusal('BAD_REQUEST', /Say why/));
    const txs = await db().selectFrom('chain_transaction').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await north.client.issuer.decline.mutate({ requestId: req.id, reason: 'We have no record of this doctorate.' });
    expect((await db().selectFrom('chain_transaction').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n).toBe(txs.n);
    const seen = await holder.client.certificate.issuersFor.query({ id: cert.id });
    expect(seen.requests[0]).toMatchObject({ status: 'declined', decline_reason: 'We have no record of this doctorate.', issuer_authority: north.wallet.address });
    // In the history: who declined what it was shown, and why (off chain: no transaction).
    expect((await holder.client.certificate.events.query({ id: cert.id })).at(-1)).toMatchObject({
      kind: 'declined',
      signature: null,
      reason: 'We have no record of this doctorate.',
      claims: { title: 'Doctor of Philosophy' },
      actor: { role: 'issuer', wallet: north.wallet.address, name: 'Northfield University' },
      message: 'Declined by Northfield University, shown “Doctor of Philosophy”, History, Northfield University, 2024-05-01: “We have no record of this doctorate.”',
    });
    // The platform's run keeps its own outcome.
    expect((await holder.client.certificate.attempts.query({ id: cert.id })).map((a) => a.outcome)).toEqual(['rejected']);
    expect((await north.fetch(req.file_url!)).status).toBe(404);
    await expect(north.client.issuer.decline.mutate({ requestId: req.id, reason: 'again' })).rejects.toMatchObject(refusal('CONFLICT', /already declined/));
  });
});

describe('revocation', () => {
  async function issued(title: string) {
    const holder = await w.browser();
    const pdf = await makePdf(['Northfield University', title, 'Chemistry']);
    const prepared = await north.client.issuer.issue.mutate(issueForm({ title, program_name: 'Chemistry', issue_date: '2025-01-01', holder_wallet: holder.wallet.address }, pdf));
    const r = await north.client.issuer.submit.mutate({ signedTransaction: signed(prepared, north) });
    return { holder, id: (r.result as { certificate_id: string }).certificate_id };
  }

  it('the issuer revokes what it issued (reason + off-chain note); another institution cannot; the operator revokes for fraud', { timeout: 90_000 }, async () => {
    const a = await issued('Certificate in Safety');
    await expect(south.client.issuer.revoke.mutate({ id: a.id, reason: 'revoked_by_issuer' })).rejects.toMatchObject(refusal('NOT_FOUND'));
    await expect(north.client.issuer.revoke.mutate({ id: a.id, reason: 'revoked_fraud' as never })).rejects.toMatchObject(refusal('BAD_REQUEST', /revoked_by_issuer/));
    const prepared = await north.client.issuer.revoke.mutate({ id: a.id, reason: 'revoked_holder_request', note: 'The holder asked on 2026-11-20.' });
    await north.client.issuer.submit.mutate({ signedTransaction: signed(prepared, north) });
    const r = await a.holder.client.certificate.byId.query({ id: a.id });
    expect(r.verification_status).toBe('revoked');
    expect(r.verification_details?.reason).toMatch(/^Revoked on .* by Northfield University/);
    expect(r).toMatchObject({ revocation_note: 'The holder asked on 2026-11-20.', issuer_authority: north.wallet.address, claims_confirmed: true });
    expect((await north.client.issuer.certificates.query({ status: 'revoked' })).certificates.map((c) => c.id)).toContain(a.id);
    await expect(north.client.issuer.revoke.mutate({ id: a.id, reason: 'revoked_by_issuer' })).rejects.toMatchObject(refusal('CONFLICT', /already revoked/));
    const revokedA = await a.holder.client.certificate.events.query({ id: a.id });
    expect(revokedA.map((e) => e.kind)).toEqual(['issued', 'revoked']);
    expect(revokedA[1]).toMatchObject({ source: 'attesta', signature: expect.any(String), reason: 'The holder asked on 2026-11-20.', actor: { role: 'issuer', wallet: north.wallet.address, name: 'Northfield University' } });
    expect(revokedA[1].message).toMatch(/^Revoked on .* by Northfield University/);

    const b = await issued('Certificate in Welding');
    await expect(w.operator.client.operator.revoke.mutate({ id: b.id, note: ' ' })).rejects.toMatchObject(refusal('BAD_REQUEST', /note is required/));
    await expect(north.client.operator.revoke.mutate({ id: b.id, note: 'x' })).rejects.toMatchObject(refusal('FORBIDDEN'));
    await w.operator.client.operator.revoke.mutate({ id: b.id, note: 'Forged signature reported by the registrar.' });
    expect(await row(b.id)).toMatchObject({ verification_status: 'revoked', revocation_note: 'Forged signature reported by the registrar.' });
    expect((await b.holder.client.certificate.events.query({ id: b.id })).at(-1)).toMatchObject({
      kind: 'revoked',
      signature: (await db().selectFrom('chain_transaction').select('signature').where('certificate_id', '=', b.id).where('kind', '=', 'revoke_certificate').executeTakeFirstOrThrow()).signature,
      reason: 'Forged signature reported by the registrar.',
      actor: { role: 'operator', wallet: w.operator.wallet.address },
    });
    expect((await w.server.services.chain.readCertificate(fromHex((await row(b.id)).sha256)))?.reasonCode).toBe(11);
  });
});

describe('repair and re-check (background work)', () => {
  it('finishes an issue a crash left between the send and its rows; closes an expired one and deletes its file', { timeout: 60_000 }, async () => {
    const svc = w.server.services;
    const holder = await w.browser();
    const form = async (title: string) => issueForm({ title, program_name: 'Geology', issue_date: '2025-02-02', holder_wallet: holder.wallet.address }, await makePdf(['Northfield University', title, 'Geology']));
    // Crash after the send: the transaction landed, the rows were never written.
    const p1 = await north.client.issuer.issue.mutate(await form('Certificate in Rocks'));
    const signedTx = signed(p1, north);
    await db().updateTable('wallet_action').set({ status: 'submitted', signed_transaction: signedTx }).where('id', '=', p1.action_id).execute();
    await svc.walletTx.send(Transaction.from(Buffer.from(signedTx, 'base64')), { kind: 'issue_certificate' });
    expect(await holder.client.certificate.list.query()).toEqual([]);
    // Expired before it was signed.
    const p2 = await north.client.issuer.issue.mutate(await form('Certificate in Sand'));
    const key2 = JSON.parse((await db().selectFrom('wallet_action').select('payload').where('id', '=', p2.action_id).executeTakeFirstOrThrow()).payload).file_key;
    expect(await svc.blobs.get(key2)).not.toBeNull();
    await db().updateTable('wallet_action').set({ expires_at: Date.now() - 1000 }).where('id', '=', p2.action_id).execute();

    const r = await settleActions(svc, ALL_WALLET_FLOWS);
    expect(r).toMatchObject({ finished: 1, errors: [] });
    expect(r.expired).toBeGreaterThanOrEqual(1);
    expect((await holder.client.certificate.list.query()).map((c) => [c.title, c.verification_status])).toEqual([['Certificate in Rocks', 'verified']]);
    expect(await svc.blobs.get(key2)).toBeNull();
    // The institution's retry of the first is answered (already finished), the second is refused.
    expect((await north.client.issuer.submit.mutate({ signedTransaction: signedTx })).result).toBeNull();
    await expect(north.client.issuer.submit.mutate({ signedTransaction: signed(p2, north) })).rejects.toMatchObject(refusal('BAD_REQUEST', /expired/));
  });

  it('re-checks proofs periodically: a removed record lapses the proof (audited), a restored one proves it again', { timeout: 60_000 }, async () => {
    const inst = await approvedInstitution(w, 'Westfield Academy', 'westfield.test');
    const holder = await w.browser();
    const pdf = await makePdf(['Westfield Academy', 'Certificate in Art', 'Art']);
    const p = await inst.client.issuer.issue.mutate(issueForm({ title: 'Certificate in Art', program_name: 'Art', issue_date: '2025-01-01', holder_wallet: holder.wallet.address }, pdf));
    await inst.client.issuer.submit.mutate({ signedTransaction: signed(p, inst) });
    const sha256 = (await holder.client.certificate.list.query())[0].sha256;
    const old = new Date(Date.now() - 3_600_000).toISOString();
    await db().updateTable('issuer_profile').set({ checked_at: old }).where('authority', '=', inst.wallet.address).execute();
    // Read (and cached) just before the proof lapses: the verdict after it must not be that one.
    expect((await w.operator.client.public.verifyByHash.query({ sha256 })).issuer).toMatchObject({ domain_proven: true });
    w.dns.zone.txt.delete('_attesta.westfield.test');
    const r = await recheckDomains(w.server.services, { olderThanMs: 60_000 });
    expect(r.changed).toEqual([{ authority: inst.wallet.address, status: 'lapsed' }]);
    expect((await inst.client.issuer.me.query())?.proof.status).toBe('lapsed');
    // Verifiers read it at once: still its own key's word, but the domain is not proven now.
    const verdict = await w.operator.client.public.verifyByHash.query({ sha256 });
    expect(verdict).toMatchObject({ valid: true, issuer: { domain: 'westfield.test', domain_proven: false } });
    expect(verdict.note).toBe("Westfield Academy's own key signed the record, but its domain westfield.test is not proven at present.");
    const audit = await w.operator.client.operator.audit.query({ limit: 5 });
    expect(audit.entries[0]).toMatchObject({ action: 'platform.domain_lapsed', actor_role: 'platform', target: inst.wallet.address });
    w.dns.zone.txt.set('_attesta.westfield.test', [`attesta-issuer=${inst.wallet.address}`]);
    await db().updateTable('issuer_profile').set({ checked_at: old }).where('authority', '=', inst.wallet.address).execute();
    expect((await recheckDomains(w.server.services, { olderThanMs: 60_000 })).changed).toEqual([{ authority: inst.wallet.address, status: 'proven' }]);
  });
});

describe('audit log', () => {
  it('records every issuer and operator action, newest first, paged', async () => {
    const first = await w.operator.client.operator.audit.query({ limit: 5 });
    expect(first.entries).toHaveLength(5);
    expect(first.next).not.toBeNull();
    const second = await w.operator.client.operator.audit.query({ limit: 100, before: first.next! });
    const all = [...first.entries, ...second.entries];
    const at = all.map((e) => e.at);
    expect([...at].sort().reverse()).toEqual(at);
    const actions = new Set(all.map((e) => e.action));
    for (const a of ['issuer.register', 'issuer.check_domain', 'operator.approve', 'operator.suspend', 'issuer.issue', 'holder.request_confirmation', 'issuer.confirm', 'issuer.decline', 'issuer.revoke', 'operator.revoke']) {
      expect(actions, a).toContain(a);
    }
    const approve = all.find((e) => e.action === 'operator.approve')!;
    expect(approve).toMatchObject({ actor_wallet: w.operator.wallet.address, actor_role: 'operator', target: expect.any(String), signature: expect.any(String) });
  });

  it('is append-only: no code updates or deletes audit_log rows', () => {
    const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
    const offenders = files(path.join(__dirname, '../src')).filter((f) => {
      const text = fs.readFileSync(f, 'utf8');
      return /(updateTable|deleteFrom)\(\s*['"]audit_log['"]/.test(text) || /\b(update|delete\s+from)\s+"?audit_log\b/i.test(text) || /truncate\s+"?audit_log/i.test(text);
    });
    expect(offenders).toEqual([]);
  });
});

describe('limits', () => {
  it('institution actions are rate limited per wallet, registrations per client address too (429 with Retry-After)', { timeout: 60_000 }, async () => {
    const small = await buildInstitutionWorld({ INSTITUTION_RATE_LIMIT_PER_WALLET: '2' });
    try {
      const a = await small.browser();
      for (let i = 0; i < 2; i++) await a.client.issuer.register.mutate({ name: `A ${i}`, domain: `a${i}.test` });
      await expect(a.client.issuer.register.mutate({ name: 'A 3', domain: 'a3.test' })).rejects.toMatchObject(refusal('TOO_MANY_REQUESTS', /Try again in \d+ second/));
      // Another wallet from the same address: the address's registration budget is spent too.
      const b = await small.browser();
      await expect(b.client.issuer.register.mutate({ name: 'B', domain: 'b.test' })).rejects.toMatchObject(refusal('TOO_MANY_REQUESTS'));
      const res = await b.fetch(`${small.server.url}/trpc/issuer.register`, { method: 'POST', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }, body: JSON.stringify({ name: 'B', domain: 'b.test' }) });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await small.close();
    }
  });
});

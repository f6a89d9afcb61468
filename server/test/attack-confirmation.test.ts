// Attacks on "an institution's confirmation means exactly what the institution saw and said" (the
// auditors' a1-claims-swap, a1b-claims-swap-proven and xreq scripts), against real institutions with
// proven domains: each test is the attack, and asserts the promised behaviour, so it fails while the
// hole is open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';
import { TrustTier, fromHex } from '../../shared/program/codec';
import { confirmCertificateIx, requestConfirmationIx } from '../../shared/program/instructions';
import { ALL_WALLET_FLOWS } from '../src/services/issuers/flows';
import { prepareAction, settleActions } from '../src/services/wallet-tx/actions';
import { makeClient, refusal, waitFor } from './helpers';
import { approvedInstitution, ask, buildInstitutionWorld, holderWithCertificate, landedUnfinished, signed, type Browser, type InstitutionWorld } from './institutions-support/world';

let w: InstitutionWorld;
let north: Browser; // Northfield University, northfield.test, proven
let south: Browser; // Southfield College, southfield.test, proven

const db = () => w.server.services.db;
const row = (id: string) => db().selectFrom('certificate').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const publicVerdict = (id: string) => makeClient(w.server.url).client.public.verifyById.query({ certificateId: id });

beforeAll(async () => {
  w = await buildInstitutionWorld();
  north = await approvedInstitution(w, 'Northfield University', 'northfield.test');
  south = await approvedInstitution(w, 'Southfield College', 'southfield.test');
}, 120_000);
afterAll(async () => {
  await w?.close();
});

/** A modest, true certificate whose document names another spelling of the holder: rejected, so its details stay editable. */
const modest = { title: 'Certificate of Attendance', institution_name: 'Northfield University', program_name: 'Summer School', issue_date: '2024-06-01' };
const inflated = { title: 'Doctor of Medicine', institution_name: 'Northfield University', program_name: 'Medicine', issue_date: '2024-06-01' };

describe('attack: claims swapped after asking (a1b)', () => {
  it('changing the details withdraws the request: the institution’s confirmation of what it saw never lands on the new details', { timeout: 90_000 }, async () => {
    const { holder, cert } = await holderWithCertificate(w, modest, { pdfHolder: 'Janet Holder' });
    expect(cert.verification_status).toBe('rejected');
    const req = await ask(holder, cert.id, north);
    expect(req).toMatchObject({ status: 'open', claims: modest, claimed_institution: 'Northfield University', names_your_institution: true, details_changed: false });
    // The institution opens the request and prepares its confirmation of what it sees…
    const early = await north.client.issuer.confirm.mutate({ requestId: req.id });
    // …while the holder inflates the claims.
    const updated = await holder.client.certificate.updateClaims.mutate({ id: cert.id, ...inflated });
    expect(updated.certificate).toMatchObject({ title: 'Doctor of Medicine', requested_issuer: null });

    // The holder sees it withdrawn, and why; the institution's queue drops it; the audit log has it.
    const mine = await holder.client.certificate.issuersFor.query({ id: cert.id });
    expect(mine.requests[0]).toMatchObject({ id: req.id, status: 'withdrawn', issuer_name: 'Northfield University', withdrawn_reason: expect.stringMatching(/You changed the certificate’s details after asking; ask again/) });
    expect((await north.client.issuer.requests.query()).some((r) => r.id === req.id)).toBe(false);
    expect((await north.client.issuer.requests.query({ status: 'withdrawn' })).find((r) => r.id === req.id)).toMatchObject({ claims: modest, file_url: null });
    const audit = await w.operator.client.operator.audit.query({ limit: 20 });
    expect(audit.entries.find((e) => e.action === 'holder.withdraw_request' && e.target === cert.id)).toMatchObject({ actor_wallet: holder.wallet.address, actor_role: 'holder' });
    const events = await holder.client.certificate.events.query({ id: cert.id });
    expect(events.map((e) => e.kind)).toEqual(['confirmation_requested', 'request_withdrawn']);
    expect(events[1].message).toMatch(/^The request to Northfield University was withdrawn: you changed the certificate’s details after asking/);

    // Its file is no longer served to the institution; neither a new prepare nor the early one goes through.
    expect((await north.fetch(`${w.server.url}/files/certificates/${cert.id}`)).status).toBe(404);
    await expect(north.client.issuer.confirm.mutate({ requestId: req.id })).rejects.toMatchObject(refusal('CONFLICT', /already withdrawn/));
    await expect(north.client.issuer.submit.mutate({ signedTransaction: signed(early, north) })).rejects.toMatchObject(refusal('CONFLICT', /already withdrawn/));
    expect((await w.server.services.chain.readCertificate(fromHex(cert.sha256)))?.tier).not.toBe(TrustTier.IssuerConfirmed);
    expect(await db().selectFrom('wallet_action').select('status').where('id', '=', early.action_id).executeTakeFirstOrThrow()).toEqual({ status: 'prepared' });

    // What a verifier and a mint see: not confirmed, not valid, not mintable.
    await waitSettled(cert.id);
    expect(await row(cert.id)).toMatchObject({ claims_confirmed: 0, tier: 'none', title: 'Doctor of Medicine' });
    const v = await publicVerdict(cert.id);
    expect(v).toMatchObject({ valid: false, tier: 'none' });
    await expect(holder.client.mint.prepare.mutate({ id: cert.id })).rejects.toMatchObject(refusal('BAD_REQUEST'));

    // The holder asks again: the institution is shown the details as they are now. (The same instruction
    // under the blockhash of the first request would be that very transaction: asked again once the
    // chain made a new one, as a wallet would after a moment.)
    const used = (await db().selectFrom('wallet_action').select('blockhash').where('certificate_id', '=', cert.id).where('kind', '=', 'request_confirmation').executeTakeFirstOrThrow()).blockhash;
    await waitFor(async () => (await w.server.services.chain.signingBlockhash()).blockhash !== used, 20_000, 100);
    const again = await ask(holder, cert.id, north);
    expect(again).toMatchObject({ status: 'open', claims: inflated });
  });

  it('the details cannot change while the institution’s confirmation is being sent', { timeout: 90_000 }, async () => {
    const { holder, cert } = await holderWithCertificate(w, modest, { pdfHolder: 'Janet Holder' });
    const req = await ask(holder, cert.id, north);
    const prepared = await north.client.issuer.confirm.mutate({ requestId: req.id });
    // Sent, not yet landed (what updateClaims finds between the confirmation's check and its rows).
    await db().updateTable('wallet_action').set({ status: 'submitted' }).where('id', '=', prepared.action_id).execute();
    await expect(holder.client.certificate.updateClaims.mutate({ id: cert.id, ...inflated })).rejects.toMatchObject(refusal('CONFLICT', /The institution is confirming this certificate right now/));
    expect(await row(cert.id)).toMatchObject({ title: modest.title, requested_issuer: north.wallet.address });
    expect((await north.client.issuer.requests.query()).find((r) => r.id === req.id)?.status).toBe('open');
  });

  it('a request opened (or a confirmation prepared) before the details changed is refused, and a confirmation that lands anyway covers the file only', { timeout: 90_000 }, async () => {
    const { holder, cert } = await holderWithCertificate(w, modest, { pdfHolder: 'Janet Holder' });
    const req = await ask(holder, cert.id, north);
    const prepared = await north.client.issuer.confirm.mutate({ requestId: req.id });
    // The details changed under an open request, as updateClaims did before it withdrew requests.
    await db().updateTable('certificate').set({ ...inflated }).where('id', '=', cert.id).execute();
    const shown = (await north.client.issuer.requests.query()).find((r) => r.id === req.id)!;
    expect(shown).toMatchObject({ claims: modest, details_changed: true });
    await expect(north.client.issuer.confirm.mutate({ requestId: req.id })).rejects.toMatchObject(
      refusal('CONFLICT', /The holder changed the certificate’s details after asking you: you were shown “Certificate of Attendance”, Summer School, Northfield University, 2024-06-01; it now says “Doctor of Medicine”, Medicine/),
    );
    await expect(north.client.issuer.submit.mutate({ signedTransaction: signed(prepared, north) })).rejects.toMatchObject(refusal('CONFLICT', /changed the certificate’s details/));

    // The transaction landed all the same (a crash between its send and its rows): its rows do not credit the new details.
    await landedUnfinished(w, prepared, north);
    expect((await settleActions(w.server.services, ALL_WALLET_FLOWS)).errors).toEqual([]);
    const r = await row(cert.id);
    expect(r).toMatchObject({ verification_status: 'verified', tier: 'issuer_confirmed', claims_confirmed: 0, title: 'Doctor of Medicine', institution_name: 'Northfield University' });
    expect(JSON.parse(r.verification_details!)).toMatchObject({ kind: 'confirmed', claims_confirmed: false, content_checked: false });
    const v = await publicVerdict(cert.id);
    expect(v).toMatchObject({ valid: false, tier: 'issuer_confirmed' });
    expect(v.note).toMatch(/Northfield University confirmed this file on chain; the title and program shown were entered by the holder and were not confirmed/);
    await expect(holder.client.mint.prepare.mutate({ id: cert.id })).rejects.toMatchObject(refusal('PRECONDITION_FAILED'));
    const confirmed = (await holder.client.certificate.events.query({ id: cert.id })).find((e) => e.kind === 'confirmed')!;
    expect(confirmed).toMatchObject({ claims_confirmed: false, actor: { role: 'issuer', wallet: north.wallet.address, name: 'Northfield University' }, signature: expect.any(String) });
    expect(confirmed.message).toMatch(/^Northfield University confirmed this file on chain, but its confirmation does not cover the details shown: The holder changed the certificate’s details after asking you/);
  });
});

describe('attack: another institution confirms in the named one’s place (a1, xreq)', () => {
  it('a holder cannot ask an institution the certificate does not name; the other is not offered', { timeout: 60_000 }, async () => {
    const claims = { title: 'Certificate in Biology', institution_name: 'Northfield University', program_name: 'Genetics', issue_date: '2025-06-01' };
    const { holder, cert } = await holderWithCertificate(w, claims);
    expect(cert.verification_status).toBe('verified');
    const options = await holder.client.certificate.issuersFor.query({ id: cert.id });
    expect(options).toMatchObject({ claimed_institution: 'Northfield University' });
    expect(options.issuers.map((i) => i.name)).toEqual(['Northfield University']);
    const before = await db().selectFrom('wallet_action').select('id').where('certificate_id', '=', cert.id).execute();
    await expect(holder.client.certificate.requestConfirmation.mutate({ id: cert.id, issuer: south.wallet.address, consent: true })).rejects.toMatchObject(
      refusal(
        'BAD_REQUEST',
        /^This certificate names “Northfield University”, not Southfield College: only the institution a certificate names can confirm it\. If you mistyped the institution, correct the certificate’s details first; if Northfield University is not on Attesta yet, ask it once it is\.$/,
      ),
    );
    expect(await db().selectFrom('wallet_action').select('id').where('certificate_id', '=', cert.id).execute()).toEqual(before);
    expect((await south.client.issuer.requests.query({ status: 'all' })).some((r) => r.certificate_id === cert.id)).toBe(false);
  });

  it('a request to another institution sent on chain is not queued there; one opened before the rule cannot be confirmed, and a confirmation that lands never renames the institution', { timeout: 90_000 }, async () => {
    const claims = { title: 'Certificate in Chemistry', institution_name: 'Northfield University', program_name: 'Genetics', issue_date: '2025-06-01' };
    const { holder, cert } = await holderWithCertificate(w, claims);
    const chain = w.server.services.chain;
    // The holder's own wallet asks Southfield on chain, outside Attesta.
    await chain.sendTransaction(new Transaction().add(SystemProgram.transfer({ fromPubkey: chain.operator, toPubkey: holder.keypair.publicKey, lamports: LAMPORTS_PER_SOL })), [], { kind: 'airdrop' });
    const tx = new Transaction({ feePayer: holder.keypair.publicKey, recentBlockhash: await chain.latestBlockhash() }).add(
      requestConfirmationIx(chain.programId, { hash: fromHex(cert.sha256), holder: holder.keypair.publicKey, issuerAuthority: south.keypair.publicKey }),
    );
    tx.sign(holder.keypair);
    const sent = await (await fetch(`${w.server.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [tx.serialize().toString('base64'), { encoding: 'base64' }] }) })).json();
    expect(sent.error).toBeUndefined();
    await w.server.chainSync.idle();
    expect((await south.client.issuer.requests.query()).some((r) => r.certificate_id === cert.id)).toBe(false);
    const mine = await holder.client.certificate.issuersFor.query({ id: cert.id });
    expect(mine.requests[0]).toMatchObject({ status: 'withdrawn', issuer_authority: south.wallet.address, withdrawn_reason: expect.stringMatching(/^This certificate names “Northfield University”, not Southfield College: only the institution a certificate names can confirm it/) });
    const followed = (await holder.client.certificate.events.query({ id: cert.id })).at(-1)!;
    expect(followed).toMatchObject({ kind: 'request_withdrawn', source: 'chain', signature: sent.result });

    // The same request as it would stand had it been opened before the rule: open in Southfield's queue.
    const req = mine.requests[0];
    await db().updateTable('confirmation_request').set({ status: 'open', decided_at: null, withdrawn_reason: null }).where('id', '=', req.id).execute();
    const queued = (await south.client.issuer.requests.query()).find((r) => r.id === req.id)!;
    expect(queued).toMatchObject({ claimed_institution: 'Northfield University', names_your_institution: false });
    await expect(south.client.issuer.confirm.mutate({ requestId: req.id })).rejects.toMatchObject(
      refusal('CONFLICT', /^This certificate names “Northfield University”, not Southfield College: an institution confirms only certificates that name it\. Decline the request instead/),
    );

    // A confirmation prepared before the rule lands (start-up repair writes its rows): the claimed institution stays.
    const southUser = await db().selectFrom('user').selectAll().where('wallet_address', '=', south.wallet.address).executeTakeFirstOrThrow();
    const prepared = await prepareAction(w.server.services, southUser, {
      kind: 'confirm_certificate',
      instructions: [confirmCertificateIx(chain.programId, { hash: fromHex(cert.sha256), authority: south.keypair.publicKey })],
      signer: south.keypair.publicKey,
      certificateId: cert.id,
      requestId: req.id,
      payload: { request_id: req.id, certificate_id: cert.id },
    });
    await expect(south.client.issuer.submit.mutate({ signedTransaction: signed(prepared, south) })).rejects.toMatchObject(refusal('CONFLICT', /names “Northfield University”/));
    await landedUnfinished(w, prepared, south);
    expect((await settleActions(w.server.services, ALL_WALLET_FLOWS)).errors).toEqual([]);
    const r = await row(cert.id);
    expect(r).toMatchObject({ institution_name: 'Northfield University', claims_confirmed: 0, tier: 'issuer_confirmed' });
    expect(JSON.parse(r.verification_details!)).toMatchObject({ claims_confirmed: false, content_checked: false, reason: 'Southfield College confirmed this file on chain, but the certificate names “Northfield University”: its confirmation does not cover the details shown.' });
    const v = await publicVerdict(cert.id);
    // Never "Authentic: confirmed by Southfield College · Southfield College" for a file that says Northfield University.
    expect(v).toMatchObject({ valid: false, issuer: { name: 'Southfield College' }, certificate: { institution_name: 'Northfield University' } });
    expect(v.note).toBe("Southfield College confirmed this file on chain with its own key, but the certificate names Northfield University, which has not confirmed it: a confirmation by Southfield College is not Northfield University's word.");
    expect((await holder.client.certificate.events.query({ id: cert.id })).find((e) => e.kind === 'confirmed')).toMatchObject({ claims_confirmed: false, actor: { name: 'Southfield College' } });
  });
});

async function waitSettled(id: string) {
  await waitFor(async () => !(await db().selectFrom('verification_job').select('id').where('certificate_id', '=', id).where('status', 'in', ['queued', 'running']).executeTakeFirst()), 60_000);
}

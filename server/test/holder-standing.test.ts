// The holder's own view of a certificate says what its public verdict says (CertificateDto.public_valid,
// public_note, expires_at, public_issuer; services/certificates/standing.ts), by id and in lists alike;
// the dashboard's Verified counter counts only what is valid; a mint is refused unless the public verdict
// is valid, and its badge and metadata name the institution, its domain and whether that is proven.
// An institution with a proven domain (a real DNS server on loopback), issuing to one holder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBadgePng } from '../src/services/mint/badge';
import { makePdf, refusal, waitFor } from './helpers';
import { toB64, walletSign } from './mint-support/flow';
import { approvedInstitution, buildInstitutionWorld, issueForm, signed, type Browser, type InstitutionWorld } from './institutions-support/world';

const NAME = 'Westbrook Institute';
const DOMAIN = 'westbrook.test';
let w: InstitutionWorld;
let inst: Browser;
let holder: Browser;

beforeAll(async () => {
  w = await buildInstitutionWorld();
  inst = await approvedInstitution(w, NAME, DOMAIN);
  holder = await w.browser();
}, 120_000);
afterAll(async () => {
  await w?.close();
});

const standing = (c: { public_valid: boolean; public_note: string | null; expires_at: string | null; public_issuer: unknown }) => ({
  public_valid: c.public_valid,
  public_note: c.public_note,
  expires_at: c.expires_at,
  public_issuer: c.public_issuer,
});

/** The institution issues a certificate to the holder's wallet; its id. */
async function issue(title: string, extra: Record<string, string> = {}) {
  const pdf = await makePdf([NAME, title, 'Engineering']);
  const prepared = await inst.client.issuer.issue.mutate(issueForm({ title, program_name: 'Engineering', issue_date: '2025-06-01', holder_wallet: holder.wallet.address, ...extra }, pdf));
  const done = await inst.client.issuer.submit.mutate({ signedTransaction: signed(prepared, inst) });
  return (done.result as { certificate_id: string }).certificate_id;
}

/** byId, and the same certificate in the list: the two ways must agree. */
async function both(id: string) {
  const one = await holder.client.certificate.byId.query({ id });
  const listed = (await holder.client.certificate.list.query()).find((c) => c.id === id)!;
  expect(standing(listed)).toEqual(standing(one));
  return one;
}

/** Prepares and submits a mint as the holder's wallet would; the metadata JSON and the badge bytes. */
async function mint(id: string) {
  const prepared = await holder.client.mint.prepare.mutate({ id });
  await holder.client.mint.submit.mutate({ id, signedTransaction: toB64(walletSign(prepared.transaction, holder.keypair)) });
  const attempt = await w.server.services.db.selectFrom('mint_attempt').selectAll().where('certificate_id', '=', id).where('status', '=', 'minted').executeTakeFirstOrThrow();
  const meta = await (await fetch(attempt.metadata_url)).json();
  const image = new Uint8Array(await (await fetch(meta.image)).arrayBuffer());
  const attrs = Object.fromEntries((meta.attributes as { trait_type: string; value: string }[]).map((a) => [a.trait_type, a.value]));
  return { meta, image, attrs, verifyHost: new URL(attempt.metadata_url).host };
}

describe("the holder's view follows the public verdict", () => {
  it('an issued certificate: valid, the institution named with its proven domain (byId, list, counters); minted as "Confirmed by … (domain, domain proven)"', { timeout: 90_000 }, async () => {
    const id = await issue('Bachelor of Engineering', { expires_on: '2099-12-31' });
    const c = await both(id);
    expect(standing(c)).toEqual({
      public_valid: true,
      public_note: null,
      expires_at: '2099-12-31T23:59:59.000Z',
      public_issuer: expect.objectContaining({ authority: inst.wallet.address, name: NAME, domain: DOMAIN, domain_proven: true, status: 'approved' }),
    });
    expect(await holder.client.certificate.stats.query()).toMatchObject({ total: 1, verified: 1, not_valid: 0 });

    const { meta, image, attrs, verifyHost } = await mint(id);
    // The metadata is permanent: the proof is dated (it held when minted), and the record's expiry is said.
    const today = new Date().toISOString().slice(0, 10);
    expect(meta.description).toContain(`Confirmed by ${NAME} (${DOMAIN}, domain proven when minted, ${today}): its own key signed the record.`);
    expect(meta.description).toContain('It expires on 2099-12-31 (UTC): not valid after that day.');
    expect(attrs).toMatchObject({ 'Trust Tier': 'Issuer confirmed', 'Signed By': NAME, 'Issuer Domain': DOMAIN, 'Domain Proven': `Yes, when minted (${today})`, Expires: '2099-12-31' });
    expect(meta).toMatchObject({ name: 'Bachelor of Engineering', symbol: 'ATST' });
    // The badge: "CONFIRMED BY" the institution, its domain proven.
    expect(Buffer.from(image).equals(Buffer.from(await renderBadgePng({ institution: NAME, tier: 'issuer_confirmed', domain: DOMAIN, verifyHost })))).toBe(true);
  });

  it('a domain proof that lapses: still valid, but the note, the page and a mint say the domain is not proven', { timeout: 90_000 }, async () => {
    const id = await issue('Master of Engineering');
    const told: unknown[] = [];
    const ac = new AbortController();
    const sub = holder.client.certificate.onStatus.subscribe({ id }, { onData: (e) => told.push(e), signal: ac.signal });
    try {
      await waitFor(async () => told.length >= 1);
      expect((await both(id)).public_note).toBeNull(); // read (and cached for a second) just before
      w.dns.zone.txt.delete(`_attesta.${DOMAIN}`);
      expect((await inst.client.issuer.checkDomain.mutate()).proof.status).toBe('lapsed');
      // The holder's open page is told (its note changes), though the certificate's row did not, and
      // reads the new verdict at once: no verdict cached before the change is served after it.
      await waitFor(async () => told.length >= 2, 10_000);
      const c = await both(id);
      expect(c.public_valid).toBe(true);
      expect(c.public_note).toBe(`${NAME}'s own key signed the record, but its domain ${DOMAIN} is not proven at present.`);
      expect(c.public_issuer).toMatchObject({ domain: DOMAIN, domain_proven: false });
      // Valid, but a verifier's badge reads "Issuer domain not proven", not "Verified": so do the
      // holder's counters and filters (both certificates of this holder are the lapsed institution's).
      expect(await holder.client.certificate.stats.query()).toMatchObject({ total: 2, verified: 0, domain_not_proven: 2, platform_checked: 0, not_valid: 0 });
      const ids = async (standing: 'verified' | 'domain_not_proven') => (await holder.client.certificate.list.query({ status: 'verified', standing })).map((x) => x.id);
      expect(await ids('domain_not_proven')).toEqual(expect.arrayContaining([id]));
      expect(await ids('verified')).toEqual([]);

      const { meta, image, attrs, verifyHost } = await mint(id);
      const today = new Date().toISOString().slice(0, 10);
      expect(meta.description).toContain(`The record was signed with ${NAME}'s own key, but its domain ${DOMAIN} was not proven when this token was minted, ${today}.`);
      expect(meta.description).not.toContain('Confirmed by');
      expect(attrs).toMatchObject({ 'Trust Tier': 'Signed, domain not proven', 'Issuer Domain': DOMAIN, 'Domain Proven': `No, when minted (${today})`, Expires: 'Never' });
      expect(Buffer.from(image).equals(Buffer.from(await renderBadgePng({ institution: NAME, tier: 'issuer_signed', domain: DOMAIN, verifyHost })))).toBe(true);
    } finally {
      ac.abort();
      sub.unsubscribe();
      w.dns.zone.txt.set(`_attesta.${DOMAIN}`, [`attesta-issuer=${inst.wallet.address}`]);
      expect((await inst.client.issuer.checkDomain.mutate()).proof.status).toBe('proven');
    }
  });

  it('attack: once the operator suspends the institution, its certificates are not valid on the holder\'s pages and counters, and cannot be minted (prepared before, or after)', { timeout: 90_000 }, async () => {
    const later = await issue('Doctor of Engineering');
    const early = await issue('Diploma of Engineering');
    const preparedEarly = await holder.client.mint.prepare.mutate({ id: early });
    const mintedBefore = (await w.server.services.chain.readRegistry())!.mintedCount;

    // A page open on the certificate (its live status) is told when the institution is suspended,
    // though no row of the certificate changes: the holder sees Not valid without reloading.
    const told: string[] = [];
    const ac = new AbortController();
    const sub = holder.client.certificate.onStatus.subscribe({ id: later }, { onData: (e) => told.push((e as { data: { verification_status: string } }).data.verification_status), signal: ac.signal });
    try {
      await waitFor(async () => told.length >= 1); // the current state, first
      await w.operator.client.operator.setStatus.mutate({ authority: inst.wallet.address, status: 'suspended' });
      await waitFor(async () => told.length >= 2, 10_000);
    } finally {
      ac.abort();
      sub.unsubscribe();
    }
    // The premise: its public verdict (the share link's) is not valid.
    expect((await holder.client.public.verifyById.query({ certificateId: later })).valid).toBe(false);

    const c = await both(later);
    expect(c.verification_status).toBe('verified'); // the record still says verified …
    expect(c.public_valid).toBe(false); // … but a verifier reads Not valid, and so does its holder
    expect(c.public_note).toBe(`${NAME}'s registration is suspended.`);
    expect(c.public_issuer).toMatchObject({ status: 'suspended' });
    // Every certificate of this holder is the suspended institution's: none counts as verified, each as not valid.
    const stats = await holder.client.certificate.stats.query();
    expect(stats).toMatchObject({ verified: 0, not_valid: stats.total, pending: 0, rejected: 0 });
    expect(stats.total).toBeGreaterThanOrEqual(2);
    // The list's "Verified" filter keeps what a verifier reads as valid: none; "Not valid now" has both.
    // By recorded status (the REST API's filter) both are still verified, each marked not valid.
    const listed = async (filter: Parameters<typeof holder.client.certificate.list.query>[0]) => (await holder.client.certificate.list.query(filter)).map((c) => c.id);
    expect(await listed({ status: 'verified', standing: 'valid' })).toEqual([]);
    expect(await listed({ status: 'verified', standing: 'not_valid' })).toEqual(expect.arrayContaining([early, later]));
    expect(await listed({ status: 'pending', standing: 'not_valid' })).toEqual([]);
    const recorded = await holder.client.certificate.list.query({ status: 'verified' });
    expect(recorded.map((c) => c.id)).toEqual(expect.arrayContaining([early, later]));
    expect(recorded.every((c) => !c.public_valid)).toBe(true);

    const why = /^This certificate cannot be minted: its public verdict is not valid\. Westbrook Institute's registration is suspended\. It can be minted once the operator approves Westbrook Institute again/;
    await expect(holder.client.mint.prepare.mutate({ id: later })).rejects.toMatchObject(refusal('PRECONDITION_FAILED', why));
    // A transaction prepared while it was valid is refused too, and nothing is minted.
    await expect(holder.client.mint.submit.mutate({ id: early, signedTransaction: toB64(walletSign(preparedEarly.transaction, holder.keypair)) })).rejects.toMatchObject(refusal('PRECONDITION_FAILED', why));
    expect((await w.server.services.chain.readRegistry())!.mintedCount).toBe(mintedBefore);
    for (const id of [early, later]) expect((await holder.client.certificate.byId.query({ id })).nft_mint_address).toBeNull();

    // Approved again: valid again.
    await w.operator.client.operator.setStatus.mutate({ authority: inst.wallet.address, status: 'approved' });
    expect((await both(later)).public_valid).toBe(true);
    expect(await listed({ status: 'verified', standing: 'valid' })).toEqual(expect.arrayContaining([early, later]));
    expect(await listed({ status: 'verified', standing: 'not_valid' })).toEqual([]);
  });
});

// What the verifier-facing verdict says (app/src/features/verification/lib/verdict-text.ts) and the
// badge it picks (status.tsx), for each kind of verdict: "verified" and "Issuer confirmed" only where
// they mean what a verifier reads into them. The browser suite (tests/e2e/verdicts-and-layout) shows
// the same on the real pages.
import { describe, expect, it } from 'vitest';
import type { PublicCertificateDto, VerdictDto } from '../../shared/schemas/dto';
import { verdictStatus, verdictSteps, verdictSummary } from '../../app/src/features/verification/lib/verdict-text';
import { statusMeta } from '../../app/src/features/certificates/components/status';
import { holderNameOf } from '../../app/src/features/certificates/lib/holder-name';

const cert = (over: Partial<PublicCertificateDto> = {}): PublicCertificateDto => ({
  id: 'c_1',
  user_id: 'u_1',
  title: 'Master of Arts',
  institution_name: 'Northwind Polytechnic',
  program_name: 'History',
  issue_date: '2023-05-20',
  verification_status: 'verified',
  verification_details: { kind: 'verdict', reason: 'ok', reason_code: 0, tier: 'platform_verified', content_checked: true, holder_name: 'Alex Demo' },
  holder_name: 'Alex Demo',
  holder_photo_url: null,
  holder_wallet: 'W',
  sha256: 'a'.repeat(64),
  record_address: 'R',
  nft_mint_address: null,
  arweave_url: null,
  certificate_url: null,
  verification_url: '',
  created_at: '2024-01-01T00:00:00Z',
  ...over,
});

const demoIssuer = { authority: 'I', name: 'Attesta Demo University', uri: 'https://demo.attesta.example', status: 'approved', domain: 'demo.attesta.example', domain_proven: false };
const provenIssuer = { ...demoIssuer, name: 'Harbor College', domain: 'harbor.example', domain_proven: true };

const verdict = (over: Partial<VerdictDto> = {}): VerdictDto => ({
  valid: true,
  note: null,
  flags: [],
  original_sha256: null,
  status: 'verified',
  integrity: 'not_checked',
  sha256: 'a'.repeat(64),
  record_address: 'R',
  tier: 'platform_verified',
  reason_code: 0,
  reason: null,
  issuer: null,
  confirmation_requested_from: null,
  holder_wallet: 'W',
  verifier: 'V',
  nft_mint: null,
  anchored_at: null,
  verified_at: null,
  revoked_at: null,
  expires_at: null,
  transactions: [],
  certificate: cert(),
  chain: { mode: 'embedded', program_id: 'P' },
  checked_at: '2024-01-01T00:00:00Z',
  ...over,
});

const GREEN = /emerald/;

describe('verdict words and badge', () => {
  it('a platform-only check says who checked it and who did not, never "Verified" or "Authentic"', () => {
    const v = verdict();
    const s = verdictSummary(v);
    expect(s.title).toBe('Checked by Attesta only — not confirmed by Northwind Polytechnic');
    expect(s.text).toBe(
      'The file is the one recorded on chain and its text names the claimed title, institution and program and the holder, Alex Demo. Ask the holder to request confirmation from Northwind Polytechnic.',
    );
    expect(verdictStatus(v)).toBe('platform_checked');
    expect(statusMeta('platform_checked').label).toBe('Checked by Attesta only');
    const steps = verdictSteps(v);
    expect(steps.tier.text).toMatch(/^Checked by Attesta only — not confirmed by Northwind Polytechnic\. /);
    expect(steps.tier.text).not.toMatch(/Platform verified/);
    // Not yet asked, then asked: how the institution's word can be had.
    expect(steps.issuer.text).toContain('Ask the holder to request confirmation from Northwind Polytechnic.');
    const asked = verdictSummary(verdict({ confirmation_requested_from: { ...provenIssuer, name: 'Northwind Polytechnic' } }));
    expect(asked.text).toContain('The holder asked Northwind Polytechnic to confirm it; it has not confirmed it yet.');
    // The server's note for this tier (REST's words) repeats the tier step: the status stays a pass, without it.
    const noted = verdictSteps(verdict({ note: 'Checked by Attesta only, not confirmed by Northwind Polytechnic.' }));
    expect(noted.status).toMatchObject({ tone: 'pass', note: null });
  });

  it('a holder name no check found is not said to be named by the document', () => {
    const v = verdict({ certificate: cert({ verification_details: { kind: 'verdict', reason: 'ok', reason_code: 0, tier: 'platform_verified' } }) });
    expect(verdictSummary(v).text).toMatch(/^The file is the one recorded on chain and its text names the claimed title, institution and program\. /);
  });

  it('a record signed by an institution whose domain is not proven is no "Issuer confirmed": amber, with the server\'s note', () => {
    const note = "Attesta Demo University's own key signed the record, but its domain demo.attesta.example is not proven at present.";
    const v = verdict({ tier: 'issuer_confirmed', issuer: demoIssuer, note, certificate: cert({ institution_name: 'Attesta Demo University' }) });
    const s = verdictSummary(v);
    expect(s.tone).toBe('warn');
    expect(`${s.title} ${s.text}`).not.toMatch(/Issuer confirmed|Authentic|Confirmed by/);
    expect(s.text).toBe(
      "The record was signed with Attesta Demo University's own key, but its domain demo.attesta.example is not proven at present, so this is not a confirmation by a proven institution.",
    );
    const steps = verdictSteps(v);
    expect(steps.tier).toEqual({ tone: 'warn', text: s.text });
    expect(steps.issuer.tone).toBe('warn');
    expect(steps.status).toMatchObject({ tone: 'warn', note });
    expect(verdictStatus(v)).toBe('domain_not_proven');
    expect(statusMeta('domain_not_proven').badge).not.toMatch(GREEN);
  });

  it('an approved institution with a proven domain: confirmed by it, naming its domain and its own key', () => {
    const v = verdict({ tier: 'issuer_confirmed', issuer: provenIssuer });
    expect(verdictSummary(v)).toMatchObject({ tone: 'pass', title: 'Authentic: confirmed by Harbor College', text: 'Confirmed by Harbor College (harbor.example): its own key signed the record.' });
    const steps = verdictSteps(v);
    expect(steps.tier).toEqual({ tone: 'pass', text: 'Issuer confirmed: Harbor College (harbor.example, domain proven) signed this record on chain with its own key.' });
    expect(steps.issuer.tone).toBe('pass');
    expect(verdictStatus(v)).toBe('verified');
  });

  it('verified on chain but not valid (suspended institution; claims the confirmation does not cover): red badge and headline, no passed mark', () => {
    for (const v of [
      verdict({ valid: false, tier: 'issuer_confirmed', issuer: { ...demoIssuer, status: 'suspended' }, note: "Attesta Demo University's registration is suspended." }),
      verdict({ valid: false, tier: 'issuer_confirmed', issuer: provenIssuer, note: 'Harbor College confirmed this file on chain; the title and program shown were entered by the holder and were not confirmed.' }),
      verdict({ valid: false }),
    ]) {
      expect(verdictStatus(v)).toBe('not_valid');
      const meta = statusMeta(verdictStatus(v));
      expect(meta.label).toBe('Not valid');
      expect(meta.badge).not.toMatch(GREEN);
      const s = verdictSummary(v);
      expect(s).toMatchObject({ tone: 'fail', title: 'Not valid' });
      expect(s.text).toBe(v.note ?? 'The title, institution and program shown were not checked against the document.');
      const steps = verdictSteps(v);
      expect(steps.status.tone).toBe('warn');
      expect(steps.status.title).toBe('Status: Verified on chain, but not valid');
      expect(steps.tier.tone).toBe('warn');
      expect(steps.tier.text).not.toMatch(/^Issuer confirmed:/);
    }
    const suspended = verdictSteps(verdict({ valid: false, tier: 'issuer_confirmed', issuer: { ...demoIssuer, status: 'suspended' } }));
    expect(suspended.tier.text).toBe("The record was signed with Attesta Demo University's own key, but its registration as an issuer is suspended, so this is not a confirmation by a proven institution.");
    expect(suspended.issuer.tone).toBe('fail');
  });

  it('a revoked record says what it had without calling an unproven signature a confirmation', () => {
    const revoked = verdictSteps(verdict({ valid: false, status: 'revoked', tier: 'issuer_confirmed', issuer: demoIssuer }));
    expect(revoked.tier).toEqual({ tone: 'fail', text: "None: the certificate is revoked. What it had (signed with Attesta Demo University's own key) no longer applies." });
    expect(verdictSteps(verdict({ valid: false, status: 'revoked' })).tier.text).toBe('None: the certificate is revoked. What it had (Checked by Attesta only) no longer applies.');
  });

  it('the holder\'s name: "found in the document" only when the check found it', () => {
    expect(holderNameOf(cert())).toEqual({ name: 'Alex Demo', checked: true, note: '(name found in the document)' });
    for (const details of [null, { kind: 'verdict', reason: 'x', reason_code: 7 }, { kind: 'confirmed', reason: 'x', tier: 'issuer_confirmed' }, { kind: 'superseded', reason: 'x' }] as const) {
      expect(holderNameOf(cert({ verification_details: details }))).toEqual({ name: 'Alex Demo', checked: false, note: '(name on their Attesta profile, not checked)' });
    }
    // Renamed since the check: the name the check found, which is what it vouches for.
    expect(holderNameOf(cert({ holder_name: 'Alexandra Demo' })).name).toBe('Alex Demo');
  });

  // The audit's findings, as the verifier-facing words say them.
  it("what the platform's check flagged: an amber line beside a valid verdict, and in the tier step, saying it is no rejection", () => {
    const flags = ['Saved by an editing tool (iLovePDF) after being created by Microsoft Word.', 'Modified 4 years after it was created.'];
    const v = verdict({ flags, note: `Checked by Attesta only, not confirmed by Northwind Polytechnic. Its check flagged …` });
    const s = verdictSummary(v);
    expect(s).toMatchObject({ tone: 'pass', title: 'Checked by Attesta only — not confirmed by Northwind Polytechnic' });
    expect(s.flags).toBe(
      "Attesta's check flagged: Saved by an editing tool (iLovePDF) after being created by Microsoft Word. Modified 4 years after it was created. On their own these do not make it invalid (its text names the claims), but only Northwind Polytechnic can confirm it.",
    );
    const steps = verdictSteps(v);
    expect(steps.tier.tone).toBe('warn');
    expect(steps.tier.text).toContain(s.flags!);
    expect(verdictSummary(verdict()).flags).toBeNull();
    expect(verdictSteps(verdict()).tier.tone).toBe('pass');
  });

  it('an expired record says since when, in words, everywhere', () => {
    const v = verdict({ valid: false, status: 'expired', tier: 'issuer_confirmed', issuer: provenIssuer, expires_at: '2026-11-26T23:59:59.000Z', note: 'Expired on November 26, 2026.' });
    const s = verdictSummary(v);
    expect(s.title).toBe('Not valid: expired');
    expect(s.text).toMatch(/^It expired on .*2026: it is not valid after that date\.$/);
    expect(s.text).not.toBe('Expired');
    expect(verdictSteps(v).status.reason).toBe(s.text);
  });

  it('a pending record found by hash says why it waits (the server\'s words), with no field of its row', () => {
    const note = 'Not verified: its content could not be read automatically, so it waits for the institution to confirm it on chain with its own key.';
    const v = verdict({ valid: false, status: 'pending', tier: 'none', certificate: null, note });
    expect(verdictSummary(v)).toMatchObject({ tone: 'warn', pending: true, title: 'Not verified yet', text: note });
    expect(verdictSteps(v).status.reason).toBe(note);
  });

  it('a confirmation by another institution than the one the certificate names is no confirmation of it', () => {
    const note = 'Southgate College confirmed this file on chain with its own key, but the certificate names Northwind Polytechnic, which has not confirmed it: a confirmation by Southgate College is not Northwind Polytechnic\'s word.';
    const v = verdict({ valid: false, tier: 'issuer_confirmed', issuer: { ...provenIssuer, name: 'Southgate College' }, note });
    const s = verdictSummary(v);
    expect(s).toMatchObject({ tone: 'fail', title: 'Not valid', text: note });
    expect(`${s.title} ${s.text}`).not.toMatch(/Authentic/);
    const steps = verdictSteps(v);
    expect(steps.tier.text).toMatch(/^Not Northwind Polytechnic's confirmation: Southgate College/);
    expect(steps.issuer).toMatchObject({ tone: 'warn' });
    expect(steps.issuer.text).toContain('the certificate names Northwind Polytechnic, which has not confirmed it');
    expect(verdictStatus(v)).toBe('not_valid');
  });

  it("a verdict found by an original upload's hash says what that hash is", () => {
    const v = verdict({ original_sha256: 'b'.repeat(64) });
    expect(verdictSummary(v).original).toMatch(/^This is the original image its holder uploaded: Attesta converted it to the PDF recorded on chain/);
    expect(verdictSummary(verdict()).original).toBeNull();
  });
});

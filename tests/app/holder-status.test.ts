// The holder's marks read as the public verdict does (issue: the holder's pages said "Verified" for
// certificates the public view shows as "Checked by Attesta only" or "Issuer domain not proven"):
// holderStatus (badges, icons, the dashboard's cards) decides as verdictStatus (the public view's badge),
// the server's count and filters (shared/schemas/holder-mark.ts) agree with both, and the toast of a
// verified run and a matching file under a verdict that is not valid say no more than was checked.
import { describe, expect, it } from 'vitest';
import type { CertificateDto, VerdictDto, VerdictInstitution } from '../../shared/schemas/dto';
import type { CertificateStatusName, TrustTierName } from '../../shared/constants';
import { holderMark } from '../../shared/schemas/holder-mark';
import { holderStatus, statusMeta, verdictBadgeStatus } from '../../app/src/features/certificates/components/status';
import { verifiedToast } from '../../app/src/features/certificates/lib/holder-verdict';
import { verdictStatus } from '../../app/src/features/verification/lib/verdict-text';
import { notValidMatch, UNCHECKED_MATCH } from '../../app/src/features/verification/components/CompareResult';

const institution = (over: Partial<VerdictInstitution> = {}): VerdictInstitution => ({
  authority: 'A',
  name: 'Attesta Demo University',
  uri: null,
  status: 'approved',
  domain: 'demo.attesta.example',
  domain_proven: false,
  ...over,
});

type Holder = Pick<CertificateDto, 'verification_status' | 'tier' | 'institution_name' | 'verification_details' | 'public_valid' | 'public_note' | 'public_issuer' | 'expires_at'>;
const holder = (over: Partial<Holder> = {}): Holder => ({
  verification_status: 'verified',
  tier: 'platform_verified',
  institution_name: 'Northwind Polytechnic',
  verification_details: { holder_name: 'Alex Demo' },
  public_valid: true,
  public_note: 'Checked by Attesta only, not confirmed by Northwind Polytechnic.',
  public_issuer: null,
  expires_at: null,
  ...over,
});

describe("the holder's badge is the public view's", () => {
  it('a platform check reads "Checked by Attesta only", never "Verified"', () => {
    const c = holder();
    expect(holderStatus(c)).toBe('platform_checked');
    expect(statusMeta(holderStatus(c)).label).toBe('Checked by Attesta only');
    expect(holderMark(c)).toBe('platform_checked');
  });

  it('cert-1 (signed by the demo institution, its domain not proven) reads "Issuer domain not proven", in the attention tone', () => {
    const c = holder({ tier: 'issuer_confirmed', public_issuer: institution(), public_note: 'its domain is not proven at present' });
    expect(holderStatus(c)).toBe('domain_not_proven');
    expect(statusMeta(holderStatus(c)).label).toBe('Issuer domain not proven');
    expect(statusMeta(holderStatus(c)).badge).toMatch(/amber/);
    expect(holderMark(c)).toBe('domain_not_proven');
  });

  it('"Verified" only where an approved institution whose domain is proven signed it', () => {
    const c = holder({ tier: 'issuer_confirmed', public_issuer: institution({ domain_proven: true }), public_note: null });
    expect(holderStatus(c)).toBe('verified');
    expect(holderMark(c)).toBe('verified');
  });

  it('an institution key whose standing could not be read just now is not said as more', () => {
    const c = holder({ tier: 'issuer_confirmed', public_issuer: null, public_note: null });
    expect(holderStatus(c)).toBe('issuer_unchecked');
    expect(statusMeta('issuer_unchecked').label).toBe('Issuer not checked just now');
    expect(holderMark(c)).toBe('issuer_unchecked');
  });

  // Every combination the holder's DTO can carry: the holder's mark, the public view's badge for the
  // same verdict, and the server's count agree.
  const statuses: CertificateStatusName[] = ['pending', 'verified', 'rejected', 'revoked', 'superseded'];
  const tiers: TrustTierName[] = ['none', 'platform_verified', 'issuer_confirmed'];
  const issuers: (VerdictInstitution | null)[] = [
    null,
    institution({ domain_proven: true }),
    institution({ domain_proven: false }),
    institution({ status: 'suspended', domain_proven: true }),
    institution({ status: 'pending' }),
  ];
  for (const verification_status of statuses)
    for (const tier of tiers)
      for (const public_valid of [true, false])
        for (const public_issuer of issuers) {
          const c = holder({ verification_status, tier, public_valid, public_issuer });
          const name = `${verification_status}, ${tier}, ${public_valid ? 'valid' : 'not valid'}, issuer ${public_issuer ? `${public_issuer.status}/${public_issuer.domain_proven ? 'proven' : 'unproven'}` : 'unread'}`;
          it(`agrees with the public view and the server: ${name}`, () => {
            const mine = holderStatus(c);
            if (verification_status !== 'verified') {
              expect(mine).toBe(verification_status);
              return;
            }
            expect(mine).toBe(holderMark(c));
            if (tier === 'issuer_confirmed' && !public_issuer) return; // the public view would read the chain itself
            const verdict = { integrity: 'not_checked', status: 'verified', valid: public_valid, tier, issuer: public_issuer } as VerdictDto;
            expect(mine).toBe(verdictStatus(verdict));
          });
        }

  it('a verified certificate whose public verdict is not valid is expired or not valid', () => {
    expect(holderStatus(holder({ public_valid: false, expires_at: '2000-01-01T00:00:00Z' }))).toBe('expired');
    expect(holderStatus(holder({ public_valid: false }))).toBe('not_valid');
  });
});

describe('the toast of a verified run says what was checked', () => {
  it('the seed\'s words where "verified" holds', () => {
    expect(verifiedToast(holder({ tier: 'issuer_confirmed', public_issuer: institution({ domain_proven: true }) }))).toEqual({
      kind: 'success',
      title: 'Certificate Verified',
      description: 'Your certificate has been successfully verified.',
    });
  });

  it('a platform check: titled as its badge, saying what Attesta checked and whose word it is not', () => {
    const t = verifiedToast(holder());
    expect(t.title).toBe('Checked by Attesta only');
    expect(t.description).toBe(
      'Your certificate has been successfully checked. The file is intact and its text names the title, institution, program and Alex Demo; not confirmed by Northwind Polytechnic. Ask the institution to confirm it (below).',
    );
    expect(`${t.title} ${t.description}`).not.toMatch(/verified/i);
  });

  it('signed by an institution whose domain is not proven: no "Verified"', () => {
    const t = verifiedToast(holder({ tier: 'issuer_confirmed', public_issuer: institution() }));
    expect(t.title).toBe('Issuer domain not proven');
    expect(t.description).toBe("Signed with Attesta Demo University's own key, but its domain demo.attesta.example is not proven.");
  });
});

describe("a verifier's badge before and without the chain's verdict", () => {
  it('says "Checking the chain" while it is read and "Not checked" when that failed, never the recorded status', () => {
    expect(verdictBadgeStatus(undefined, true)).toBe('checking');
    expect(statusMeta('checking').label).toBe('Checking the chain');
    expect(verdictBadgeStatus(undefined, false)).toBe('unchecked');
    expect(statusMeta('unchecked').label).toBe('Not checked');
    expect(statusMeta('unchecked').badge).toMatch(/amber/);
    for (const s of ['checking', 'unchecked']) expect(statusMeta(s).badge).not.toMatch(/emerald/);
  });

  it('is the verdict once read', () => {
    const verdict = { integrity: 'not_checked', status: 'verified', valid: true, tier: 'platform_verified', issuer: null } as unknown as VerdictDto;
    expect(verdictBadgeStatus(verdict, false)).toBe(verdictStatus(verdict));
    expect(verdictBadgeStatus(verdict, true)).toBe('platform_checked');
  });
});

describe('a file matching a certificate that is not valid', () => {
  it('is no pass: it says the certificate is not valid, in its own terms', () => {
    expect(notValidMatch({ valid: true, status: 'verified' })).toBeNull();
    // No verdict read (not yet, or the chain check failed): the file matched the database's record, not the chain's.
    expect(notValidMatch(undefined)).toBe(UNCHECKED_MATCH);
    expect(notValidMatch(null)).toBe(UNCHECKED_MATCH);
    for (const status of ['revoked', 'rejected', 'superseded', 'expired'] as const) {
      expect(notValidMatch({ valid: false, status })).toBe(`But the certificate is not valid: it is ${status}. A matching file does not make it valid.`);
    }
    expect(notValidMatch({ valid: false, status: 'pending' })).toBe('But the certificate is not verified yet: a matching file does not make it valid.');
    expect(notValidMatch({ valid: false, status: 'verified' })).toBe('But the certificate is not valid (see its verdict). A matching file does not make it valid.');
  });
});

// Reason words are read by verifiers: they must be true whichever part the institution played.
import { describe, expect, it } from 'vitest';
import { ReasonCode, REASON_NAMES, reasonText, revokerRoleText } from './reasons';

describe('reason words', () => {
  it('code 10 (revoked_by_issuer) never says the institution issued what it was only asked to confirm', () => {
    // SPEC.md: revoke_certificate's `issuer` is the authority that issued it, confirmed it, or was asked by the holder to confirm it.
    expect(REASON_NAMES[ReasonCode.RevokedByIssuer]).toBe('revoked_by_issuer');
    expect(reasonText(ReasonCode.RevokedByIssuer)).toBe('revoked by the institution named on the record');
    expect(reasonText(ReasonCode.RevokedByIssuer)).not.toMatch(/issued/);
  });

  it('names the revoker\'s part by the tier the record had', () => {
    expect(revokerRoleText('issuer', 'issuer_confirmed')).toBe(' (the issuing institution)');
    expect(revokerRoleText('issuer', 'platform_verified')).toBe(' (the institution the holder asked to confirm it)');
    expect(revokerRoleText('issuer', 'none')).toBe(' (the institution the holder asked to confirm it)');
    expect(revokerRoleText('issuer', undefined)).toBe(' (the institution the holder asked to confirm it)');
    expect(revokerRoleText('platform', 'issuer_confirmed')).toBe('');
    expect(revokerRoleText(undefined, 'issuer_confirmed')).toBe('');
  });

  it('has words for every code, and says so for an unknown one', () => {
    for (const code of Object.keys(REASON_NAMES).map(Number)) expect(reasonText(code)).not.toMatch(/_/);
    expect(reasonText(77)).toBe('reason code 77');
  });
});

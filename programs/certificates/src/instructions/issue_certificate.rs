//! `issue_certificate(hash: [u8; 32], expires_at: i64)`: an approved issuer records a SHA-256 for
//! a holder, already verified and issuer-confirmed (the institution's word).
//!
//! A record that already exists is *superseded* (rewritten for the new holder) unless it is the
//! institution's live word: an issuer-confirmed record, unless it is this issuer's own revoked
//! one. So whoever anchored a file first cannot lock its rightful holder out, and nobody can
//! overwrite another institution's confirmation or revocation. A record that already names the
//! holder is never issued over: for its holder that would be a confirmation nobody asked for (and
//! revoke rights with it); the holder asks (`request_confirmation`), the issuer confirms.
//!
//! Accounts:
//! 0. `certificate` — writable, PDA `["certificate", hash]`: not yet created, or a record that may
//!    be superseded
//! 1. `holder` — any key
//! 2. `issuer` — PDA `["issuer", authority]`, approved
//! 3. `authority` — signer
//! 4. `payer` — signer, writable (pays only when the record is created)
//! 5. `registry` — writable, PDA `["registry"]` (certificate_count, verified_count)
//! 6. `system_program`

use super::anchor_certificate::{create, emit_anchored, NewCertificate};
use super::{require_system_program, require_valid_expiry};
use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::certificate::{self, Certificate};
use crate::state::issuer::Issuer;
use crate::state::{increment, registry::Registry};
use crate::{events, sysvars, Pubkey, ZERO_KEY};

pub const DISCRIMINATOR: [u8; 8] = [0x3d, 0xc5, 0x37, 0x1c, 0x9f, 0x12, 0x84, 0x80];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [certificate_account, holder, issuer, authority, payer, registry, system_program, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let hash = reader.array::<32>()?;
    let expires_at = reader.i64()?;
    reader.finish()?;
    authority.require_signer()?;
    payer.require_signer()?;
    payer.require_writable()?;
    require_system_program(system_program)?;
    Issuer::load_for(issuer, program_id, authority.key())?.require_approved()?;
    // SAFETY: the only mutable reference to the registry's data; the issuer (read above) and the
    // certificate are different accounts (distinct discriminators / PDAs).
    let registry = unsafe { Registry::load_mut(registry, program_id)? };
    let now = sysvars::unix_timestamp();
    require_valid_expiry(expires_at, now)?;

    if certificate_account.is_uninitialized() {
        create(&NewCertificate {
            program_id,
            certificate: certificate_account,
            payer,
            holder: holder.key(),
            issued_by: Some(authority.key()),
            hash,
            expires_at,
            now,
        })?;
        increment(&mut registry.certificate_count)?;
    } else {
        // SAFETY: the only reference to the certificate's data; the registry and issuer are other
        // accounts (program accounts are never duplicated).
        let state = unsafe { Certificate::load_mut(certificate_account, program_id, hash)? };
        require_supersedable(state, authority.key(), holder.key())?;
        supersede(state, &Superseding { certificate: certificate_account.key(), hash, holder: holder.key(), authority: authority.key(), expires_at, now });
    }
    increment(&mut registry.verified_count)
}

/// `HashAlreadyAnchored` when the record is the institution's live word: issuer-confirmed, and
/// either not revoked or revoked by the word of another issuer than `authority`. Then
/// `RecordAlreadyNamesHolder` when it names `holder` already: a supersede ends an earlier claim of
/// *another* wallet; over the holder's own record it would only turn into the issuer's word what
/// the holder never put to it. Also when the holder asked `authority` itself: its consent is to
/// `confirm_certificate`, not to a rewrite (new expiry, NFT cleared); and a revoked record stays
/// revoked for its holder.
pub(crate) fn require_supersedable(state: &Certificate, authority: &Pubkey, holder: &Pubkey) -> Result<()> {
    if state.is_issuer_confirmed() && (state.status != certificate::STATUS_REVOKED || state.issuer != *authority) {
        return Err(Error::HashAlreadyAnchored);
    }
    if state.holder == *holder {
        return Err(Error::RecordAlreadyNamesHolder);
    }
    Ok(())
}

/// The new issue that replaces an existing record.
struct Superseding<'a> {
    certificate: &'a Pubkey,
    hash: &'a [u8; 32],
    holder: &'a Pubkey,
    authority: &'a Pubkey,
    expires_at: i64,
    now: i64,
}

/// Rewrites every field except the discriminator and the bump as a fresh issue, then emits
/// `CertificateSuperseded` and `CertificateAnchored`. The NFT minted by an earlier claimant no
/// longer names the record's holder, so `nft_mint` is cleared and the new holder may mint.
fn supersede(state: &mut Certificate, new: &Superseding) {
    let previous_holder = state.holder;
    state.holder = *new.holder;
    state.issuer = *new.authority;
    state.verifier = *new.authority;
    state.nft_mint = ZERO_KEY;
    state.anchored_at = new.now.to_le_bytes();
    state.verified_at = new.now.to_le_bytes();
    state.revoked_at = 0i64.to_le_bytes();
    state.expires_at = new.expires_at.to_le_bytes();
    state.status = certificate::STATUS_VERIFIED;
    state.tier = certificate::TIER_ISSUER_CONFIRMED;
    state.reason_code = 0;

    let mut event = Writer::<{ 8 + 32 * 5 }>::new();
    event
        .put(&events::CERTIFICATE_SUPERSEDED)
        .put(new.certificate)
        .put(new.hash)
        .put(&previous_holder)
        .put(new.holder)
        .put(new.authority);
    events::emit(event.as_slice());
    emit_anchored(new.certificate, new.hash, new.holder, new.authority, new.expires_at);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::certificate::tests::record;

    const A: Pubkey = [0xa; 32];
    const B: Pubkey = [0xb; 32];
    /// `record()`'s holder, and another wallet.
    const HOLDER: Pubkey = [1; 32];
    const OTHER: Pubkey = [4; 32];

    #[test]
    fn any_record_without_the_institutions_word_may_be_superseded_for_another_holder() {
        for status in [certificate::STATUS_PENDING, certificate::STATUS_VERIFIED, certificate::STATUS_REJECTED, certificate::STATUS_REVOKED] {
            for tier in [certificate::TIER_NONE, certificate::TIER_PLATFORM_VERIFIED] {
                // Whatever issuer the holder asked (or none).
                for issuer in [ZERO_KEY, A, B] {
                    assert_eq!(require_supersedable(&record(status, tier, issuer), &A, &OTHER), Ok(()), "status {status} tier {tier}");
                }
            }
        }
    }

    #[test]
    fn no_record_is_issued_over_to_the_holder_it_already_names() {
        for status in [certificate::STATUS_PENDING, certificate::STATUS_VERIFIED, certificate::STATUS_REJECTED, certificate::STATUS_REVOKED] {
            for tier in [certificate::TIER_NONE, certificate::TIER_PLATFORM_VERIFIED] {
                // Not asked, asked another issuer, or asked this very issuer: it confirms instead.
                for issuer in [ZERO_KEY, A, B] {
                    assert_eq!(require_supersedable(&record(status, tier, issuer), &A, &HOLDER), Err(Error::RecordAlreadyNamesHolder), "status {status} tier {tier}");
                }
            }
        }
        // Nor its own revoked record, back to the same holder: the revocation stands.
        let revoked = record(certificate::STATUS_REVOKED, certificate::TIER_ISSUER_CONFIRMED, A);
        assert_eq!(require_supersedable(&revoked, &A, &HOLDER), Err(Error::RecordAlreadyNamesHolder));
    }

    #[test]
    fn a_live_issuer_confirmed_record_may_not_be_superseded_even_by_its_issuer() {
        let live = record(certificate::STATUS_VERIFIED, certificate::TIER_ISSUER_CONFIRMED, A);
        for holder in [HOLDER, OTHER] {
            assert_eq!(require_supersedable(&live, &A, &holder), Err(Error::HashAlreadyAnchored));
            assert_eq!(require_supersedable(&live, &B, &holder), Err(Error::HashAlreadyAnchored));
        }
    }

    #[test]
    fn only_its_own_issuer_may_reissue_a_revoked_issuer_confirmed_record_to_another_holder() {
        let revoked = record(certificate::STATUS_REVOKED, certificate::TIER_ISSUER_CONFIRMED, A);
        assert_eq!(require_supersedable(&revoked, &A, &OTHER), Ok(()));
        assert_eq!(require_supersedable(&revoked, &B, &OTHER), Err(Error::HashAlreadyAnchored));
        assert_eq!(require_supersedable(&revoked, &B, &HOLDER), Err(Error::HashAlreadyAnchored));
    }

    #[test]
    fn superseding_rewrites_the_record_as_a_fresh_issue() {
        let mut state = record(certificate::STATUS_REVOKED, certificate::TIER_PLATFORM_VERIFIED, B);
        state.nft_mint = [9; 32];
        state.reason_code = 11;
        state.revoked_at = 77i64.to_le_bytes();
        let holder = [4; 32];
        supersede(&mut state, &Superseding { certificate: &[1; 32], hash: &[2; 32], holder: &holder, authority: &A, expires_at: 500, now: 100 });
        assert_eq!((state.holder, state.issuer, state.verifier, state.nft_mint), (holder, A, A, ZERO_KEY));
        assert_eq!((state.status, state.tier, state.reason_code), (certificate::STATUS_VERIFIED, certificate::TIER_ISSUER_CONFIRMED, 0));
        assert_eq!(
            [state.anchored_at, state.verified_at, state.revoked_at, state.expires_at].map(i64::from_le_bytes),
            [100, 100, 0, 500]
        );
        assert_eq!((state.discriminator, state.bump), (certificate::DISCRIMINATOR, 254));
    }
}

//! `confirm_certificate(hash: [u8; 32])`: an approved issuer that the holder asked (see
//! `request_confirmation`) confirms the certificate: verified, issuer-confirmed. The institution's
//! word overrides a platform check, so pending, rejected and verified records are confirmable.
//!
//! Accounts:
//! 0. `certificate` — writable, PDA `["certificate", hash]`, `certificate.issuer == authority`
//! 1. `issuer` — PDA `["issuer", authority]`, approved
//! 2. `authority` — signer
//! 3. `registry` — writable, PDA `["registry"]` (verified_count)

use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::certificate::{self, Certificate};
use crate::state::issuer::Issuer;
use crate::state::{increment, registry::Registry};
use crate::{events, sysvars, Pubkey};

pub const DISCRIMINATOR: [u8; 8] = [0x7a, 0xb7, 0x3f, 0x12, 0x3c, 0x4a, 0x79, 0x43];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [certificate_account, issuer, authority, registry, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let hash = reader.array::<32>()?;
    reader.finish()?;
    authority.require_signer()?;
    Issuer::load_for(issuer, program_id, authority.key())?.require_approved()?;
    // SAFETY: the only reference to the certificate's data; the issuer and the registry are other
    // accounts (program accounts are never duplicated).
    let state = unsafe { Certificate::load_mut(certificate_account, program_id, hash)? };
    let now = sysvars::unix_timestamp();
    require_confirmable(state, authority.key(), now)?;
    // SAFETY: the only reference to the registry's data.
    let registry = unsafe { Registry::load_mut(registry, program_id)? };

    let newly_verified = state.status != certificate::STATUS_VERIFIED;
    state.status = certificate::STATUS_VERIFIED;
    state.tier = certificate::TIER_ISSUER_CONFIRMED;
    state.reason_code = 0;
    state.verifier = *authority.key();
    state.verified_at = now.to_le_bytes();
    if newly_verified {
        increment(&mut registry.verified_count)?;
    }

    let mut event = Writer::<{ 8 + 32 * 3 }>::new();
    event.put(&events::CERTIFICATE_CONFIRMED).put(certificate_account.key()).put(hash).put(authority.key());
    events::emit(event.as_slice());
    Ok(())
}

/// The record's rules, in order: revoked → `InvalidCertificateStatus`, already issuer-confirmed →
/// `AlreadyConfirmed`, the holder did not ask `authority` → `ConfirmationNotRequested`, expired →
/// `CertificateExpired`.
pub(crate) fn require_confirmable(state: &Certificate, authority: &Pubkey, now: i64) -> Result<()> {
    match state.status {
        certificate::STATUS_PENDING | certificate::STATUS_VERIFIED | certificate::STATUS_REJECTED => {}
        _ => return Err(Error::InvalidCertificateStatus),
    }
    if state.is_issuer_confirmed() {
        return Err(Error::AlreadyConfirmed);
    }
    if state.issuer != *authority {
        return Err(Error::ConfirmationNotRequested);
    }
    state.require_not_expired(now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::certificate::tests::record;
    use crate::ZERO_KEY;

    const A: Pubkey = [0xa; 32];
    const B: Pubkey = [0xb; 32];

    #[test]
    fn the_asked_issuer_may_confirm_a_pending_verified_or_rejected_record() {
        for status in [certificate::STATUS_PENDING, certificate::STATUS_VERIFIED, certificate::STATUS_REJECTED] {
            for tier in [certificate::TIER_NONE, certificate::TIER_PLATFORM_VERIFIED] {
                assert_eq!(require_confirmable(&record(status, tier, A), &A, 0), Ok(()));
            }
        }
    }

    #[test]
    fn nobody_else_may_confirm() {
        let asked_a = record(certificate::STATUS_VERIFIED, certificate::TIER_PLATFORM_VERIFIED, A);
        assert_eq!(require_confirmable(&asked_a, &B, 0), Err(Error::ConfirmationNotRequested));
        let not_asked = record(certificate::STATUS_PENDING, certificate::TIER_NONE, ZERO_KEY);
        assert_eq!(require_confirmable(&not_asked, &A, 0), Err(Error::ConfirmationNotRequested));
    }

    #[test]
    fn checks_in_order_revoked_confirmed_requested_expired() {
        let revoked = record(certificate::STATUS_REVOKED, certificate::TIER_ISSUER_CONFIRMED, B);
        assert_eq!(require_confirmable(&revoked, &A, 0), Err(Error::InvalidCertificateStatus));
        let confirmed = record(certificate::STATUS_VERIFIED, certificate::TIER_ISSUER_CONFIRMED, B);
        assert_eq!(require_confirmable(&confirmed, &A, 0), Err(Error::AlreadyConfirmed));
        assert_eq!(require_confirmable(&confirmed, &B, 0), Err(Error::AlreadyConfirmed));
        let mut expired = record(certificate::STATUS_PENDING, certificate::TIER_NONE, B);
        expired.expires_at = 10i64.to_le_bytes();
        assert_eq!(require_confirmable(&expired, &A, 11), Err(Error::ConfirmationNotRequested));
        assert_eq!(require_confirmable(&expired, &B, 11), Err(Error::CertificateExpired));
        assert_eq!(require_confirmable(&expired, &B, 10), Ok(()));
    }
}

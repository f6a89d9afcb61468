//! `request_confirmation(hash: [u8; 32])`: the holder asks an approved issuer to confirm the
//! certificate. The request (the holder's consent, on chain) is `certificate.issuer` while the
//! tier is not issuer-confirmed; a later request replaces an earlier one (e.g. after an
//! institution declined). `confirm_certificate` requires it. No account is created: the platform
//! pays the fee as the transaction's fee payer.
//!
//! Accounts:
//! 0. `certificate` — writable, PDA `["certificate", hash]`
//! 1. `issuer` — PDA `["issuer", authority]` of the institution asked, approved
//! 2. `holder` — signer, `certificate.holder`

use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::certificate::{self, Certificate};
use crate::state::issuer::Issuer;
use crate::{events, sysvars, Pubkey};

/// `sha256("global:request_confirmation")[..8]`.
pub const DISCRIMINATOR: [u8; 8] = [0x6e, 0x6c, 0x91, 0xd6, 0xc6, 0x58, 0x09, 0x97];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [certificate_account, issuer, holder, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let hash = reader.array::<32>()?;
    reader.finish()?;
    // SAFETY: the only reference to the certificate's data; the issuer is another account
    // (program accounts are never duplicated) and is only read.
    let state = unsafe { Certificate::load_mut(certificate_account, program_id, hash)? };
    if state.holder != *holder.key() {
        return Err(Error::NotHolder);
    }
    holder.require_signer()?;
    let issuer = Issuer::load(issuer, program_id)?;
    issuer.require_approved()?;
    require_requestable(state, sysvars::unix_timestamp())?;

    state.issuer = issuer.authority;

    let mut event = Writer::<{ 8 + 32 * 4 }>::new();
    event
        .put(&events::CONFIRMATION_REQUESTED)
        .put(certificate_account.key())
        .put(hash)
        .put(holder.key())
        .put(&issuer.authority);
    events::emit(event.as_slice());
    Ok(())
}

/// The record's rules, in order: revoked → `InvalidCertificateStatus`, expired →
/// `CertificateExpired`, already issuer-confirmed → `AlreadyConfirmed`.
pub(crate) fn require_requestable(state: &Certificate, now: i64) -> Result<()> {
    match state.status {
        certificate::STATUS_PENDING | certificate::STATUS_VERIFIED | certificate::STATUS_REJECTED => {}
        _ => return Err(Error::InvalidCertificateStatus),
    }
    state.require_not_expired(now)?;
    if state.is_issuer_confirmed() {
        return Err(Error::AlreadyConfirmed);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::certificate::tests::record;
    use crate::ZERO_KEY;

    #[test]
    fn a_pending_verified_or_rejected_record_may_be_put_to_an_issuer() {
        for status in [certificate::STATUS_PENDING, certificate::STATUS_VERIFIED, certificate::STATUS_REJECTED] {
            for tier in [certificate::TIER_NONE, certificate::TIER_PLATFORM_VERIFIED] {
                // No request yet, or one to replace.
                for issuer in [ZERO_KEY, [0xa; 32]] {
                    assert_eq!(require_requestable(&record(status, tier, issuer), 0), Ok(()));
                }
            }
        }
    }

    #[test]
    fn checks_in_order_revoked_expired_confirmed() {
        let mut revoked = record(certificate::STATUS_REVOKED, certificate::TIER_ISSUER_CONFIRMED, [0xa; 32]);
        revoked.expires_at = 10i64.to_le_bytes();
        assert_eq!(require_requestable(&revoked, 11), Err(Error::InvalidCertificateStatus));
        let mut confirmed = record(certificate::STATUS_VERIFIED, certificate::TIER_ISSUER_CONFIRMED, [0xa; 32]);
        confirmed.expires_at = 10i64.to_le_bytes();
        assert_eq!(require_requestable(&confirmed, 11), Err(Error::CertificateExpired));
        assert_eq!(require_requestable(&confirmed, 10), Err(Error::AlreadyConfirmed));
    }
}

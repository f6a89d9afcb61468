//! `record_verification(hash: [u8; 32], verified: bool, reason_code: u8)`: a platform verifier
//! records the verdict on a pending or rejected certificate (a rejected one may be re-verified).
//! A positive verdict is always platform_verified: the issuer-confirmed tier comes only from
//! `issue_certificate` and `confirm_certificate`, and an issuer the holder merely asked has no say.
//!
//! Accounts:
//! 0. `certificate` — writable, PDA `["certificate", hash]`
//! 1. `registry` — writable, PDA `["registry"]` (verified_count)
//! 2. `verifier` — signer, one of `registry.verifiers`
//!
//! (Before request_confirmation existed a fourth, optional `issuer` account was passed; like any
//! extra trailing account it is ignored, so such clients keep working.)

use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::certificate::{self, Certificate};
use crate::state::{increment, registry::Registry};
use crate::{events, sysvars, Pubkey};

pub const DISCRIMINATOR: [u8; 8] = [0xb3, 0x7f, 0x32, 0x63, 0x01, 0x4e, 0x20, 0xbe];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [certificate_account, registry, verifier, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let hash = reader.array::<32>()?;
    let verified = reader.bool()?;
    let reason_code = reader.u8()?;
    reader.finish()?;
    verifier.require_signer()?;
    // SAFETY: the only reference to the registry's data; the certificate is another account
    // (program accounts are never duplicated).
    let registry = unsafe { Registry::load_mut(registry, program_id)? };
    if !registry.is_verifier(verifier.key()) {
        return Err(Error::NotAVerifier);
    }
    // SAFETY: the only reference to the certificate's data.
    let state = unsafe { Certificate::load_mut(certificate_account, program_id, hash)? };
    match state.status {
        certificate::STATUS_PENDING | certificate::STATUS_REJECTED => {}
        certificate::STATUS_VERIFIED => return Err(Error::AlreadyVerified),
        _ => return Err(Error::CertificateRevoked),
    }
    let now = sysvars::unix_timestamp();
    state.require_not_expired(now)?;
    if !verified && reason_code == 0 {
        return Err(Error::InvalidReasonCode);
    }
    let (status, tier, reason_code) = if verified {
        (certificate::STATUS_VERIFIED, certificate::TIER_PLATFORM_VERIFIED, 0)
    } else {
        (certificate::STATUS_REJECTED, certificate::TIER_NONE, reason_code)
    };

    state.status = status;
    state.tier = tier;
    state.reason_code = reason_code;
    state.verifier = *verifier.key();
    state.verified_at = now.to_le_bytes();
    if verified {
        increment(&mut registry.verified_count)?;
    }

    let mut event = Writer::<{ 8 + 32 * 3 + 3 }>::new();
    event
        .put(&events::VERIFICATION_RECORDED)
        .put(certificate_account.key())
        .put(hash)
        .u8(status)
        .u8(tier)
        .u8(reason_code)
        .put(verifier.key());
    events::emit(event.as_slice());
    Ok(())
}

//! `revoke_certificate(hash: [u8; 32], reason_code: u8)`: the certificate's issuer, a platform
//! verifier or the admin revokes it. The record is kept, with the reason, the revoker and the time.
//! "The certificate's issuer" is `certificate.issuer`: the authority that issued or confirmed it,
//! or the one the holder asked to confirm it (the holder's request lets it act on fraud). Any
//! other issuer is a stranger here.
//!
//! Accounts:
//! 0. `certificate` — writable, PDA `["certificate", hash]`
//! 1. `registry` — writable, PDA `["registry"]` (revoked_count)
//! 2. `authority` — signer: registry admin, a registry verifier or `certificate.issuer`

use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::certificate::{self, Certificate};
use crate::state::{increment, registry::Registry};
use crate::{events, sysvars, Pubkey, ZERO_KEY};

pub const DISCRIMINATOR: [u8; 8] = [0xec, 0x05, 0x82, 0x77, 0x09, 0xa4, 0x82, 0x7a];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [certificate_account, registry, authority, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let hash = reader.array::<32>()?;
    let reason_code = reader.u8()?;
    reader.finish()?;
    authority.require_signer()?;
    // SAFETY: the only reference to the certificate's data; the registry is another account.
    let state = unsafe { Certificate::load_mut(certificate_account, program_id, hash)? };
    // SAFETY: the only reference to the registry's data.
    let registry = unsafe { Registry::load_mut(registry, program_id)? };
    let key = authority.key();
    let is_issuer = state.issuer != ZERO_KEY && state.issuer == *key;
    if !(is_issuer || registry.admin == *key || registry.is_verifier(key)) {
        return Err(Error::NotAuthorizedToRevoke);
    }
    if state.status == certificate::STATUS_REVOKED {
        return Err(Error::AlreadyRevoked);
    }
    if reason_code == 0 {
        return Err(Error::InvalidReasonCode);
    }

    state.status = certificate::STATUS_REVOKED;
    state.reason_code = reason_code;
    state.verifier = *key;
    state.revoked_at = sysvars::unix_timestamp().to_le_bytes();
    increment(&mut registry.revoked_count)?;

    let mut event = Writer::<{ 8 + 32 * 3 + 1 }>::new();
    event
        .put(&events::CERTIFICATE_REVOKED)
        .put(certificate_account.key())
        .put(hash)
        .u8(reason_code)
        .put(key);
    events::emit(event.as_slice());
    Ok(())
}

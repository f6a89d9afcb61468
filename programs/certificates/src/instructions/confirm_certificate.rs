//! `confirm_certificate(hash: [u8; 32])`: an approved issuer confirms an anchored certificate and
//! becomes its issuer; a verified certificate is upgraded to the issuer-confirmed tier.
//!
//! Accounts:
//! 0. `certificate` — writable, PDA `["certificate", hash]`
//! 1. `issuer` — PDA `["issuer", authority]`, approved
//! 2. `authority` — signer

use crate::borsh::{Reader, Writer};
use crate::entrypoint::AccountInfo;
use crate::error::{Error, Result};
use crate::state::certificate::{self, Certificate};
use crate::state::issuer::Issuer;
use crate::{events, Pubkey, ZERO_KEY};

pub const DISCRIMINATOR: [u8; 8] = [0x7a, 0xb7, 0x3f, 0x12, 0x3c, 0x4a, 0x79, 0x43];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [certificate_account, issuer, authority, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let hash = reader.array::<32>()?;
    reader.finish()?;
    authority.require_signer()?;
    Issuer::load_for(issuer, program_id, authority.key())?.require_approved()?;
    // SAFETY: the only reference to the certificate's data; the issuer is another account.
    let state = unsafe { Certificate::load_mut(certificate_account, program_id, hash)? };
    match state.status {
        certificate::STATUS_PENDING | certificate::STATUS_VERIFIED => {}
        _ => return Err(Error::InvalidCertificateStatus),
    }
    if state.issuer != ZERO_KEY {
        return Err(Error::AlreadyConfirmed);
    }

    state.issuer = *authority.key();
    if state.status == certificate::STATUS_VERIFIED {
        state.tier = certificate::TIER_ISSUER_CONFIRMED;
    }

    let mut event = Writer::<{ 8 + 32 * 3 }>::new();
    event.put(&events::CERTIFICATE_CONFIRMED).put(certificate_account.key()).put(hash).put(authority.key());
    events::emit(event.as_slice());
    Ok(())
}

//! `issue_certificate(hash: [u8; 32], expires_at: i64)`: an approved issuer anchors a SHA-256 for
//! a holder and names itself as the certificate's issuer; status pending.
//!
//! Accounts:
//! 0. `certificate` — writable, PDA `["certificate", hash]`, not yet created
//! 1. `holder` — any key
//! 2. `issuer` — PDA `["issuer", authority]`, approved
//! 3. `authority` — signer
//! 4. `payer` — signer, writable
//! 5. `registry` — writable, PDA `["registry"]` (certificate_count)
//! 6. `system_program`

use super::anchor_certificate::{create, NewCertificate};
use super::{require_system_program, require_valid_expiry};
use crate::borsh::Reader;
use crate::entrypoint::AccountInfo;
use crate::error::{Error, Result};
use crate::state::issuer::Issuer;
use crate::state::{increment, registry::Registry};
use crate::{sysvars, Pubkey};

pub const DISCRIMINATOR: [u8; 8] = [0x3d, 0xc5, 0x37, 0x1c, 0x9f, 0x12, 0x84, 0x80];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [certificate, holder, issuer, authority, payer, registry, system_program, ..] = accounts else {
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

    create(&NewCertificate { program_id, certificate, payer, holder: holder.key(), issuer: authority.key(), hash, expires_at, now })?;
    increment(&mut registry.certificate_count)
}

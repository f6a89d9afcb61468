//! `set_issuer_status(status: IssuerStatus)`: the admin approves, suspends or resets an issuer.
//!
//! Accounts:
//! 0. `issuer` — writable, an Issuer account (PDA `["issuer", authority]`)
//! 1. `registry` — PDA `["registry"]`
//! 2. `admin` — signer, must be `registry.admin`

use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::issuer::{self, Issuer};
use crate::state::registry::Registry;
use crate::{events, sysvars, Pubkey};

pub const DISCRIMINATOR: [u8; 8] = [0x1f, 0xa0, 0x4b, 0x73, 0x77, 0x62, 0x5b, 0x0f];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [issuer_account, registry, admin, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let status = reader.u8()?;
    reader.finish()?;
    if status > issuer::STATUS_SUSPENDED {
        return Err(Error::InvalidIssuerStatus);
    }
    admin.require_signer()?;
    let registry = Registry::load(registry, program_id)?;
    if registry.admin != *admin.key() {
        return Err(Error::Unauthorized);
    }
    // SAFETY: the only reference to the issuer's data; the registry (read above) is a different
    // account since both discriminators were checked and program accounts are never duplicated.
    let state = unsafe { Issuer::load_mut(issuer_account, program_id)? };

    state.status = status;
    state.updated_at = sysvars::unix_timestamp().to_le_bytes();

    let mut event = Writer::<41>::new();
    event.put(&events::ISSUER_STATUS_CHANGED).put(issuer_account.key()).u8(status);
    events::emit(event.as_slice());
    Ok(())
}

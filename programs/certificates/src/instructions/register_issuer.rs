//! `register_issuer(name: string, uri: string)`: registers the signing authority as an issuer,
//! status pending, until the admin approves it.
//!
//! Accounts:
//! 0. `issuer` — writable, PDA `["issuer", authority]`, not yet created
//! 1. `authority` — signer
//! 2. `payer` — signer, writable
//! 3. `registry` — writable, PDA `["registry"]` (issuer_count)
//! 4. `system_program`

use super::require_system_program;
use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::issuer::{self, Issuer};
use crate::state::{increment, registry::Registry};
use crate::system::{self, NewAccount};
use crate::{events, pda, sysvars, Pubkey};

pub const DISCRIMINATOR: [u8; 8] = [0x91, 0x75, 0x34, 0x3b, 0xbd, 0x1b, 0x7f, 0x12];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [issuer_account, authority, payer, registry, system_program, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let name = reader.string()?.as_bytes();
    let uri = reader.string()?.as_bytes();
    reader.finish()?;
    if name.is_empty() || name.len() > issuer::MAX_NAME_LEN {
        return Err(Error::InvalidName);
    }
    if uri.len() > issuer::MAX_URI_LEN {
        return Err(Error::InvalidUri);
    }
    issuer_account.require_writable()?;
    authority.require_signer()?;
    payer.require_signer()?;
    payer.require_writable()?;
    require_system_program(system_program)?;
    // SAFETY: the only reference to the registry's data in this instruction; the issuer account
    // is a different PDA (checked below) and is not program-owned yet.
    let registry = unsafe { Registry::load_mut(registry, program_id)? };
    if !issuer_account.is_uninitialized() {
        return Err(Error::AccountAlreadyInitialized);
    }
    let bump = pda::find_and_check(&[issuer::SEED, authority.key()], program_id, issuer_account.key())?;
    let now = sysvars::unix_timestamp();

    system::create_pda_account(&NewAccount {
        payer,
        account: issuer_account,
        space: issuer::LEN,
        owner: program_id,
        seeds: &[issuer::SEED, authority.key(), &[bump]],
    })?;
    // SAFETY: the issuer account was just created by this instruction; this is the only reference.
    let data = unsafe { issuer_account.data_mut() };
    let (fixed, strings) = data.split_at_mut(issuer::NAME_OFFSET);
    // SAFETY: `fixed` is exactly size_of::<Issuer>() bytes and Issuer has alignment 1.
    let state = unsafe { &mut *(fixed.as_mut_ptr() as *mut Issuer) };
    state.discriminator = issuer::DISCRIMINATOR;
    state.authority = *authority.key();
    state.status = issuer::STATUS_PENDING;
    state.bump = bump;
    state.registered_at = now.to_le_bytes();
    state.updated_at = now.to_le_bytes();
    // Borsh strings, name then uri; the account has room for both at their maximum lengths.
    let mut text = Writer::<{ issuer::LEN - issuer::NAME_OFFSET }>::new();
    text.string(name).string(uri);
    strings[..text.as_slice().len()].copy_from_slice(text.as_slice());
    increment(&mut registry.issuer_count)?;

    let mut event = Writer::<{ 8 + 32 + 32 + 4 + issuer::MAX_NAME_LEN }>::new();
    event.put(&events::ISSUER_REGISTERED).put(issuer_account.key()).put(authority.key()).string(name);
    events::emit(event.as_slice());
    Ok(())
}

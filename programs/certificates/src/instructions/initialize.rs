//! `initialize`: creates the registry; the admin pays, and becomes admin and verifier 0.
//!
//! Accounts:
//! 0. `registry` — writable, PDA `["registry"]`, not yet created
//! 1. `admin` — signer, writable (pays)
//! 2. `system_program`

use super::require_system_program;
use crate::account_info::AccountInfo;
use crate::error::{Error, Result};
use crate::events;
use crate::state::registry::{self, Registry};
use crate::system::{self, NewAccount};
use crate::{borsh::Reader, pda, Pubkey};

pub const DISCRIMINATOR: [u8; 8] = [0xaf, 0xaf, 0x6d, 0x1f, 0x0d, 0x98, 0x9b, 0xed];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [registry, admin, system_program, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    Reader::new(args).finish()?;
    registry.require_writable()?;
    admin.require_signer()?;
    admin.require_writable()?;
    require_system_program(system_program)?;
    if !registry.is_uninitialized() {
        return Err(Error::AccountAlreadyInitialized);
    }
    let bump = pda::find_and_check(&[registry::SEED], program_id, registry.key())?;

    system::create_pda_account(&NewAccount { payer: admin, account: registry, space: registry::LEN, owner: program_id, seeds: &[registry::SEED, &[bump]] })?;
    // SAFETY: the registry was just created by this instruction; this is the only reference.
    let state = unsafe { &mut *(registry.data_mut().as_mut_ptr() as *mut Registry) };
    state.discriminator = registry::DISCRIMINATOR;
    state.admin = *admin.key();
    state.verifiers[0] = *admin.key();
    state.verifier_count = 1;
    state.bump = bump;

    let mut event = crate::borsh::Writer::<40>::new();
    event.put(&events::REGISTRY_INITIALIZED).put(admin.key());
    events::emit(event.as_slice());
    Ok(())
}

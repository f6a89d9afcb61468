//! `set_verifier(verifier: pubkey, enabled: bool)`: the admin adds or removes a platform verifier.
//!
//! Accounts:
//! 0. `registry` — writable, PDA `["registry"]`
//! 1. `admin` — signer, must be `registry.admin`

use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::registry::Registry;
use crate::{events, Pubkey, ZERO_KEY};

pub const DISCRIMINATOR: [u8; 8] = [0xba, 0xf7, 0xbf, 0x83, 0x94, 0x9e, 0xd5, 0x3f];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [registry, admin, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let verifier = reader.pubkey()?;
    let enabled = reader.bool()?;
    reader.finish()?;
    // The zero key means "empty slot" and can never sign.
    if *verifier == ZERO_KEY {
        return Err(Error::InvalidInstructionData);
    }
    admin.require_signer()?;
    // SAFETY: the only reference to the registry's data in this instruction.
    let state = unsafe { Registry::load_mut(registry, program_id)? };
    if state.admin != *admin.key() {
        return Err(Error::Unauthorized);
    }

    if enabled {
        state.add_verifier(verifier)?;
    } else {
        state.remove_verifier(verifier)?;
    }

    let mut event = Writer::<41>::new();
    event.put(&events::VERIFIER_SET).put(verifier).u8(enabled as u8);
    events::emit(event.as_slice());
    Ok(())
}

//! Account types. Each is a `#[repr(C)]` struct of byte arrays (alignment 1) laid over the
//! account data, with `load`/`load_mut` that check owner, length and discriminator (and the PDA).

pub mod certificate;
pub mod issuer;
pub mod registry;

use crate::account_info::AccountInfo;
use crate::error::{Error, Result};
use crate::Pubkey;

/// Checks owner, length and discriminator of a program account of type `T` (`len` bytes).
fn check_account(account: &AccountInfo, program_id: &Pubkey, discriminator: &[u8; 8], len: usize) -> Result<()> {
    if account.owner() != program_id {
        return Err(Error::InvalidAccountOwner);
    }
    let data = account.data();
    if data.len() < len {
        return Err(Error::AccountDataTooSmall);
    }
    if data[..8] != discriminator[..] {
        return Err(Error::InvalidDiscriminator);
    }
    Ok(())
}

/// Adds one to a little-endian u64 counter.
pub fn increment(counter: &mut [u8; 8]) -> Result<()> {
    let value = u64::from_le_bytes(*counter).checked_add(1).ok_or(Error::ArithmeticOverflow)?;
    *counter = value.to_le_bytes();
    Ok(())
}

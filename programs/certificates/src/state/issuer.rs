//! `Issuer` — PDA `["issuer", authority]` — 258 bytes: fixed fields, then the Borsh strings
//! `name` (1..=64 bytes) and `uri` (0..=128 bytes), with space for their maximum lengths.

use super::check_account;
use crate::account_info::AccountInfo;
use crate::error::{Error, Result};
use crate::{pda, Pubkey};
use core::mem::{align_of, size_of};

/// `sha256("account:Issuer")[..8]`.
pub const DISCRIMINATOR: [u8; 8] = [0xd8, 0x13, 0x53, 0xe6, 0x6c, 0x35, 0x50, 0x0e];
pub const SEED: &[u8] = b"issuer";
pub const MAX_NAME_LEN: usize = 64;
pub const MAX_URI_LEN: usize = 128;
/// Offset of the `name` string.
pub const NAME_OFFSET: usize = 58;
pub const LEN: usize = NAME_OFFSET + 4 + MAX_NAME_LEN + 4 + MAX_URI_LEN;

const _: () = assert!(LEN == 258);

/// `IssuerStatus`.
pub const STATUS_PENDING: u8 = 0;
pub const STATUS_APPROVED: u8 = 1;
pub const STATUS_SUSPENDED: u8 = 2;

/// The fixed-offset part of an Issuer account (the strings follow at `NAME_OFFSET`).
#[repr(C)]
pub struct Issuer {
    pub discriminator: [u8; 8],
    pub authority: Pubkey,
    pub status: u8,
    pub bump: u8,
    pub registered_at: [u8; 8],
    pub updated_at: [u8; 8],
}

const _: () = assert!(size_of::<Issuer>() == NAME_OFFSET && align_of::<Issuer>() == 1);

impl Issuer {
    /// An issuer account, read-only: owner, length, discriminator and PDA (from the stored
    /// authority and bump) checked.
    pub fn load<'a>(account: &'a AccountInfo, program_id: &Pubkey) -> Result<&'a Issuer> {
        check_account(account, program_id, &DISCRIMINATOR, LEN)?;
        // SAFETY: the data holds at least LEN ≥ size_of::<Issuer>() bytes; Issuer is a repr(C)
        // struct of byte arrays with alignment 1.
        let issuer = unsafe { &*(account.data().as_ptr() as *const Issuer) };
        pda::check(&[SEED, &issuer.authority], issuer.bump, program_id, account.key())?;
        Ok(issuer)
    }

    /// As `load`, writable.
    ///
    /// # Safety
    /// No other reference to this account's data may be live (see `AccountInfo::data_mut`).
    // The loader's buffer is mutable; exclusivity is the caller's contract (above).
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn load_mut<'a>(account: &'a AccountInfo, program_id: &Pubkey) -> Result<&'a mut Issuer> {
        account.require_writable()?;
        Self::load(account, program_id)?;
        Ok(&mut *(account.data_mut().as_mut_ptr() as *mut Issuer))
    }

    /// The issuer account of `authority`: loaded, and its stored authority must be `authority`.
    pub fn load_for<'a>(account: &'a AccountInfo, program_id: &Pubkey, authority: &Pubkey) -> Result<&'a Issuer> {
        let issuer = Self::load(account, program_id)?;
        if issuer.authority != *authority {
            return Err(Error::InvalidPda);
        }
        Ok(issuer)
    }

    /// Ok only for an approved issuer.
    pub fn require_approved(&self) -> Result<()> {
        match self.status {
            STATUS_APPROVED => Ok(()),
            STATUS_SUSPENDED => Err(Error::IssuerSuspended),
            _ => Err(Error::IssuerNotApproved),
        }
    }
}

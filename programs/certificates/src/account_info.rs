//! One account of the instruction, viewed in place in the loader's input buffer: its serialized
//! header (signer/writable flags, key, owner, lamports, data length) and the data that follows it.
//! Only `entrypoint::deserialize` makes these views (`AccountInfo::from_header`); the rest of the
//! program receives them as `&[AccountInfo]`.

use crate::error::{Error, Result};
use crate::Pubkey;
use core::mem::size_of;

/// The fixed header of a serialized account, exactly as the loader lays it out.
#[repr(C)]
pub struct AccountHeader {
    /// 0xFF for an account's first entry; a duplicate entry holds the index of the first one
    /// instead (and no further header). Read by the entrypoint while it walks the input.
    pub(crate) dup: u8,
    is_signer: u8,
    is_writable: u8,
    executable: u8,
    original_data_len: u32,
    key: Pubkey,
    owner: Pubkey,
    lamports: u64,
    /// Read by the entrypoint too: the data (and the realloc padding) it skips follow the header.
    pub(crate) data_len: u64,
}

const _: () = assert!(size_of::<AccountHeader>() == 88);

/// An account of the instruction: a pointer to its header in the loader's input buffer. Two
/// `AccountInfo`s of a duplicated account point at the same header.
#[derive(Clone, Copy)]
pub struct AccountInfo {
    raw: *mut AccountHeader,
}

impl AccountInfo {
    /// A view of the account whose header `raw` points at.
    ///
    /// # Safety
    /// `raw` must point at a complete (non-duplicate) account header inside the loader's input
    /// buffer, followed there by its `data_len` bytes of data; the buffer must stay valid and
    /// 8-aligned for as long as the view (or a copy of it) is used — the loader's buffer does, for
    /// the whole instruction.
    pub(crate) unsafe fn from_header(raw: *mut AccountHeader) -> Self {
        AccountInfo { raw }
    }

    fn header(&self) -> &AccountHeader {
        // SAFETY: by `from_header`'s contract `raw` points at a header inside the loader's input
        // buffer, which lives (and stays 8-aligned) for the whole instruction; the runtime changes
        // it only during a CPI that we make, while no reference obtained here is held.
        unsafe { &*self.raw }
    }

    pub fn key(&self) -> &Pubkey {
        &self.header().key
    }

    pub fn owner(&self) -> &Pubkey {
        &self.header().owner
    }

    pub fn lamports(&self) -> u64 {
        self.header().lamports
    }

    pub fn is_signer(&self) -> bool {
        self.header().is_signer != 0
    }

    pub fn is_writable(&self) -> bool {
        self.header().is_writable != 0
    }

    pub fn data_len(&self) -> usize {
        self.header().data_len as usize
    }

    /// `MissingSignature` unless the account signed.
    pub fn require_signer(&self) -> Result<()> {
        if self.is_signer() {
            Ok(())
        } else {
            Err(Error::MissingSignature)
        }
    }

    /// `AccountNotWritable` unless the account is writable.
    pub fn require_writable(&self) -> Result<()> {
        if self.is_writable() {
            Ok(())
        } else {
            Err(Error::AccountNotWritable)
        }
    }

    /// True when the account has never been created: system-owned with no data. (Lamports may
    /// have been sent to the address beforehand; `system::create_pda_account` handles that.)
    pub fn is_uninitialized(&self) -> bool {
        self.data_len() == 0 && *self.owner() == crate::SYSTEM_PROGRAM_ID
    }

    pub fn data(&self) -> &[u8] {
        // SAFETY: the data follows the header and is `data_len` bytes long within the input buffer
        // (`from_header`'s contract).
        unsafe { core::slice::from_raw_parts(self.data_ptr(), self.data_len()) }
    }

    /// The account's data, mutable.
    ///
    /// # Safety
    /// No other reference to this account's data may be live while the result is used. The
    /// entrypoint (`entrypoint::deserialize`) rejects duplicated program-owned accounts, so
    /// distinct program accounts never alias; callers take at most one such reference per account.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn data_mut(&self) -> &mut [u8] {
        core::slice::from_raw_parts_mut(self.data_ptr(), self.data_len())
    }

    pub fn data_ptr(&self) -> *mut u8 {
        // SAFETY: the header is followed by the account data in the same buffer (`from_header`'s
        // contract).
        unsafe { (self.raw as *mut u8).add(size_of::<AccountHeader>()) }
    }

    /// Pointer to the lamports field, for the CPI account-info structure.
    pub fn lamports_ptr(&self) -> *mut u64 {
        // SAFETY: `raw` is valid (see `header`); taking a field address does not read it.
        unsafe { core::ptr::addr_of_mut!((*self.raw).lamports) }
    }
}

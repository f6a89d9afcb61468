//! The loader's input buffer, parsed once, and the program entrypoint.
//!
//! Input layout (SBF loader, aligned serialization):
//! `u64 num_accounts`, then per account either a duplicate (`u8 index` + 7 bytes padding) or
//! `u8 0xFF, u8 is_signer, u8 is_writable, u8 executable, u32 original_data_len, key 32, owner 32,
//! u64 lamports, u64 data_len, data, 10 KiB realloc padding, align to 8, u64 rent_epoch`;
//! then `u64 instruction_data_len`, the instruction data and the 32-byte program id.

use crate::account_info::{AccountHeader, AccountInfo};
use crate::error::{Error, Result};
use crate::Pubkey;
use core::mem::{size_of, MaybeUninit};

/// Bytes an account's data may grow by in one instruction; the loader reserves them.
const MAX_PERMITTED_DATA_INCREASE: usize = 10 * 1024;
/// Marker of a non-duplicate account.
const NON_DUP_MARKER: u8 = 0xFF;
/// Accounts kept by the entrypoint; no instruction takes more than 7, extra ones are skipped.
pub const MAX_ACCOUNTS: usize = 16;

/// The parsed input: accounts (at most `MAX_ACCOUNTS` kept), instruction data, program id.
pub struct Input<'a> {
    pub program_id: &'a Pubkey,
    pub accounts: &'a [AccountInfo],
    pub data: &'a [u8],
}

/// Parses the loader's input buffer.
///
/// # Safety
/// `input` must be the buffer the SBF loader passes to `entrypoint`, laid out as described at the
/// top of this file; `accounts` receives the first `MAX_ACCOUNTS` accounts.
pub unsafe fn deserialize<'a>(
    input: *mut u8,
    accounts: &'a mut [MaybeUninit<AccountInfo>; MAX_ACCOUNTS],
) -> Result<Input<'a>> {
    let mut offset = 0usize;
    let num_accounts = *(input as *const u64) as usize;
    offset += size_of::<u64>();
    let mut kept = 0usize;
    // Bit i set: account i was referenced by a duplicate entry.
    let mut duplicated: u32 = 0;
    for _ in 0..num_accounts {
        let header = input.add(offset) as *mut AccountHeader;
        let dup = (*header).dup;
        let info = if dup == NON_DUP_MARKER {
            let data_len = (*header).data_len as usize;
            offset += size_of::<AccountHeader>() + data_len + MAX_PERMITTED_DATA_INCREASE;
            offset = (offset + 7) & !7;
            offset += size_of::<u64>(); // rent_epoch
            // SAFETY: `header` is a complete account header in the loader's buffer (this function's
            // contract), which outlives the instruction: what `from_header` requires.
            Some(AccountInfo::from_header(header))
        } else {
            offset += size_of::<u64>();
            let index = dup as usize;
            if index < kept {
                duplicated |= 1 << index;
                Some(accounts[index].assume_init())
            } else {
                None
            }
        };
        if let (Some(info), true) = (info, kept < MAX_ACCOUNTS) {
            accounts[kept].write(info);
            kept += 1;
        }
    }
    let data_len = *(input.add(offset) as *const u64) as usize;
    offset += size_of::<u64>();
    let data = core::slice::from_raw_parts(input.add(offset), data_len);
    offset += data_len;
    let program_id = &*(input.add(offset) as *const Pubkey);
    let accounts = core::slice::from_raw_parts(accounts.as_ptr() as *const AccountInfo, kept);

    // A program-owned account passed twice would let two mutable views of its data alias
    // (e.g. the same account as `certificate` and `registry`): refuse it outright.
    let mut i = 0;
    while duplicated != 0 {
        if duplicated & 1 != 0 && accounts[i].owner() == program_id {
            return Err(Error::InvalidPda);
        }
        duplicated >>= 1;
        i += 1;
    }
    Ok(Input { program_id, accounts, data })
}

/// The program's entrypoint, called by the SBF loader with its serialized input.
///
/// # Safety
/// Called only by the loader, with a valid input buffer.
#[cfg(all(feature = "bpf-entrypoint", target_os = "none"))]
#[no_mangle]
pub unsafe extern "C" fn entrypoint(input: *mut u8) -> u64 {
    let mut accounts = [const { MaybeUninit::<AccountInfo>::uninit() }; MAX_ACCOUNTS];
    // SAFETY: `input` is the loader's buffer.
    let result = deserialize(input, &mut accounts)
        .and_then(|input| crate::processor::process(input.program_id, input.accounts, input.data));
    match result {
        Ok(()) => 0,
        Err(error) => {
            error.log();
            // A custom program error is returned as its number (non-zero, below 2^32).
            error as u64
        }
    }
}

/// Panics (bounds checks, overflow checks) abort the transaction with the location in the log.
#[cfg(all(not(test), target_os = "none"))]
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    let (file, line, column) = match info.location() {
        Some(l) => (l.file(), l.line() as u64, l.column() as u64),
        None => ("", 0, 0),
    };
    // SAFETY: the pointer and length describe a valid &str; the syscall does not return.
    unsafe { crate::syscalls::sol_panic_(file.as_ptr(), file.len() as u64, line, column) }
}

/// Host builds of the library (not the tests, which link std) never run: this only lets
/// `cargo build`/`cargo clippy` link the host cdylib.
#[cfg(all(not(test), not(target_os = "none")))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    loop {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// key, owner, data, is_signer — or `Err(i)`: a duplicate of account i.
    type Entry<'a> = core::result::Result<(Pubkey, Pubkey, &'a [u8], bool), u8>;

    /// Serializes accounts the way the loader does.
    fn input(accounts: &[Entry], data: &[u8], program_id: &Pubkey) -> Vec<u64> {
        let mut bytes: Vec<u8> = Vec::new();
        bytes.extend_from_slice(&(accounts.len() as u64).to_le_bytes());
        for account in accounts {
            match account {
                Err(index) => bytes.extend_from_slice(&[*index, 0, 0, 0, 0, 0, 0, 0]),
                Ok((key, owner, data, signer)) => {
                    bytes.extend_from_slice(&[NON_DUP_MARKER, *signer as u8, 1, 0, 0, 0, 0, 0]);
                    bytes.extend_from_slice(key);
                    bytes.extend_from_slice(owner);
                    bytes.extend_from_slice(&1_000u64.to_le_bytes());
                    bytes.extend_from_slice(&(data.len() as u64).to_le_bytes());
                    bytes.extend_from_slice(data);
                    bytes.resize(bytes.len() + MAX_PERMITTED_DATA_INCREASE, 0);
                    bytes.resize((bytes.len() + 7) & !7, 0);
                    bytes.extend_from_slice(&0u64.to_le_bytes());
                }
            }
        }
        bytes.extend_from_slice(&(data.len() as u64).to_le_bytes());
        bytes.extend_from_slice(data);
        bytes.extend_from_slice(program_id);
        // An 8-aligned buffer, as the loader provides.
        let mut words = std::vec![0u64; bytes.len().div_ceil(8)];
        // SAFETY: `words` holds at least `bytes.len()` bytes.
        unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), words.as_mut_ptr() as *mut u8, bytes.len()) };
        words
    }

    #[test]
    fn parses_accounts_duplicates_data_and_program_id() {
        let program = [9u8; 32];
        let mut buf = input(&[Ok(([1; 32], [0; 32], &[5, 6, 7], true)), Err(0), Ok(([2; 32], program, &[], false))], &[0xAA, 0xBB], &program);
        let mut slots = [const { MaybeUninit::<AccountInfo>::uninit() }; MAX_ACCOUNTS];
        // SAFETY: `buf` is laid out like the loader's input.
        let parsed = unsafe { deserialize(buf.as_mut_ptr() as *mut u8, &mut slots) }.unwrap();
        assert_eq!(parsed.program_id, &program);
        assert_eq!(parsed.data, &[0xAA, 0xBB]);
        assert_eq!(parsed.accounts.len(), 3);
        assert_eq!(parsed.accounts[0].key(), &[1; 32]);
        assert_eq!(parsed.accounts[0].data(), &[5, 6, 7]);
        assert!(parsed.accounts[0].is_signer());
        assert_eq!(parsed.accounts[1].key(), &[1; 32]);
        assert_eq!(parsed.accounts[2].owner(), &program);
        assert!(!parsed.accounts[2].is_signer());
    }

    #[test]
    fn refuses_a_duplicated_program_account() {
        let program = [9u8; 32];
        let mut buf = input(&[Ok(([1; 32], program, &[1; 172], false)), Err(0)], &[], &program);
        let mut slots = [const { MaybeUninit::<AccountInfo>::uninit() }; MAX_ACCOUNTS];
        // SAFETY: `buf` is laid out like the loader's input.
        let parsed = unsafe { deserialize(buf.as_mut_ptr() as *mut u8, &mut slots) };
        assert_eq!(parsed.err(), Some(Error::InvalidPda));
    }

    #[test]
    fn keeps_at_most_max_accounts_and_still_finds_the_data() {
        let program = [9u8; 32];
        let many: Vec<_> = (0..20u8).map(|i| Ok(([i; 32], [0; 32], &[][..], false))).collect();
        let mut buf = input(&many, &[1, 2, 3], &program);
        let mut slots = [const { MaybeUninit::<AccountInfo>::uninit() }; MAX_ACCOUNTS];
        // SAFETY: `buf` is laid out like the loader's input.
        let parsed = unsafe { deserialize(buf.as_mut_ptr() as *mut u8, &mut slots) }.unwrap();
        assert_eq!(parsed.accounts.len(), MAX_ACCOUNTS);
        assert_eq!(parsed.data, &[1, 2, 3]);
        assert_eq!(parsed.program_id, &program);
    }
}

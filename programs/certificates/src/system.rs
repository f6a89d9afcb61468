//! Account creation by CPI to the system program, signed with the new account's PDA seeds.

use crate::account_info::AccountInfo;
use crate::error::{Error, Result};
use crate::syscalls::{sol_invoke_signed_c, SolAccountInfo, SolAccountMeta, SolBytes, SolInstruction, SolSignerSeeds};
use crate::{sysvars, Pubkey, SYSTEM_PROGRAM_ID};

// System program instruction tags (u32 little-endian).
const CREATE_ACCOUNT: u32 = 0;
const ASSIGN: u32 = 1;
const TRANSFER: u32 = 2;
const ALLOCATE: u32 = 8;

/// An account to create: `account` (an uninitialized PDA, see `AccountInfo::is_uninitialized`)
/// gets `space` bytes, rent-exempt lamports from `payer`, and `owner`. `seeds` are the PDA's seeds
/// including the bump.
pub struct NewAccount<'a> {
    pub payer: &'a AccountInfo,
    pub account: &'a AccountInfo,
    pub space: usize,
    pub owner: &'a Pubkey,
    pub seeds: &'a [&'a [u8]],
}

/// Creates `new.account` as `new` describes.
///
/// An address that already holds lamports (anyone can send lamports to a predictable PDA) cannot
/// be used with `create_account`, so it is topped up, allocated and assigned instead: nobody can
/// block a registration by pre-funding its address.
pub fn create_pda_account(new: &NewAccount) -> Result<()> {
    let NewAccount { payer, account: new, space, owner, seeds } = *new;
    let required = sysvars::minimum_balance(space)?;
    let mut seed_parts = [SolBytes::new(&[]); 4];
    for (part, seed) in seed_parts.iter_mut().zip(seeds.iter()) {
        *part = SolBytes::new(seed);
    }
    let signer = SolSignerSeeds { addr: seed_parts.as_ptr(), len: seeds.len().min(4) as u64 };
    let current = new.lamports();
    if current == 0 {
        let mut data = [0u8; 52];
        data[..4].copy_from_slice(&CREATE_ACCOUNT.to_le_bytes());
        data[4..12].copy_from_slice(&required.to_le_bytes());
        data[12..20].copy_from_slice(&(space as u64).to_le_bytes());
        data[20..52].copy_from_slice(owner);
        return invoke(&[payer, new], &data, &signer);
    }
    if current < required {
        let mut data = [0u8; 12];
        data[..4].copy_from_slice(&TRANSFER.to_le_bytes());
        data[4..12].copy_from_slice(&(required - current).to_le_bytes());
        invoke(&[payer, new], &data, &signer)?;
    }
    let mut data = [0u8; 12];
    data[..4].copy_from_slice(&ALLOCATE.to_le_bytes());
    data[4..12].copy_from_slice(&(space as u64).to_le_bytes());
    invoke(&[new], &data, &signer)?;
    let mut data = [0u8; 36];
    data[..4].copy_from_slice(&ASSIGN.to_le_bytes());
    data[4..36].copy_from_slice(owner);
    invoke(&[new], &data, &signer)
}

/// Invokes the system program with `accounts` (all writable; signer flags as in the caller,
/// plus the PDA that `signer` signs for).
fn invoke(accounts: &[&AccountInfo], data: &[u8], signer: &SolSignerSeeds) -> Result<()> {
    let mut metas: [SolAccountMeta; 2] = [
        SolAccountMeta { pubkey: core::ptr::null(), is_writable: true, is_signer: true },
        SolAccountMeta { pubkey: core::ptr::null(), is_writable: true, is_signer: true },
    ];
    let mut infos: [SolAccountInfo; 2] = [empty_info(), empty_info()];
    let n = accounts.len().min(2);
    for i in 0..n {
        let account = accounts[i];
        // The payer signed the transaction; the new account is signed for by the PDA seeds.
        metas[i].pubkey = account.key().as_ptr();
        infos[i] = SolAccountInfo {
            key: account.key().as_ptr(),
            lamports: account.lamports_ptr(),
            data_len: account.data_len() as u64,
            data: account.data_ptr(),
            owner: account.owner().as_ptr(),
            rent_epoch: 0,
            is_signer: true,
            is_writable: account.is_writable(),
            executable: false,
        };
    }
    let instruction = SolInstruction {
        program_id: SYSTEM_PROGRAM_ID.as_ptr(),
        accounts: metas.as_ptr(),
        account_len: n as u64,
        data: data.as_ptr(),
        data_len: data.len() as u64,
    };
    // SAFETY: every pointer refers to live memory: the instruction, metas and infos on this stack
    // frame, keys/lamports/owners/data inside the loader's input buffer (the runtime writes the
    // new lamports, owner and length back there), and the seeds borrowed from the caller.
    let rc = unsafe { sol_invoke_signed_c(&instruction, infos.as_ptr(), n as u64, signer, 1) };
    if rc == 0 {
        Ok(())
    } else {
        // The system program logged its reason; report the generic "could not create".
        Err(Error::AccountAlreadyInitialized)
    }
}

fn empty_info() -> SolAccountInfo {
    SolAccountInfo {
        key: core::ptr::null(),
        lamports: core::ptr::null_mut(),
        data_len: 0,
        data: core::ptr::null_mut(),
        owner: core::ptr::null(),
        rent_epoch: 0,
        is_signer: false,
        is_writable: false,
        executable: false,
    }
}

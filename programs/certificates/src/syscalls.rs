//! The runtime's syscalls (resolved by name by the SBF loader) and the C-ABI structures they take.
//!
//! On the host (`cargo test`) the syscalls do not exist: stubs with the same signatures panic, so
//! only pure logic is unit-tested there and the integration tests run the real program.

/// A (pointer, length) pair: the element of the slice lists taken by `sol_sha256` and
/// `sol_log_data`, and a signer seed of `sol_invoke_signed_c`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct SolBytes {
    pub addr: *const u8,
    pub len: u64,
}

impl SolBytes {
    pub fn new(bytes: &[u8]) -> Self {
        Self { addr: bytes.as_ptr(), len: bytes.len() as u64 }
    }
}

/// One signer's seeds for `sol_invoke_signed_c`.
#[repr(C)]
pub struct SolSignerSeeds {
    pub addr: *const SolBytes,
    pub len: u64,
}

/// An account of a cross-program instruction.
#[repr(C)]
pub struct SolAccountMeta {
    pub pubkey: *const u8,
    pub is_writable: bool,
    pub is_signer: bool,
}

/// A cross-program instruction.
#[repr(C)]
pub struct SolInstruction {
    pub program_id: *const u8,
    pub accounts: *const SolAccountMeta,
    pub account_len: u64,
    pub data: *const u8,
    pub data_len: u64,
}

/// The caller's view of an account handed to `sol_invoke_signed_c`; the runtime writes lamports,
/// owner and data length back through these pointers (which point into the loader's input).
#[repr(C)]
pub struct SolAccountInfo {
    pub key: *const u8,
    pub lamports: *mut u64,
    pub data_len: u64,
    pub data: *mut u8,
    pub owner: *const u8,
    pub rent_epoch: u64,
    pub is_signer: bool,
    pub is_writable: bool,
    pub executable: bool,
}

#[cfg(target_os = "none")]
extern "C" {
    pub fn sol_log_(message: *const u8, len: u64);
    pub fn sol_log_data(data: *const SolBytes, data_len: u64);
    pub fn sol_sha256(vals: *const SolBytes, val_len: u64, hash_result: *mut u8) -> u64;
    pub fn sol_invoke_signed_c(
        instruction: *const SolInstruction,
        account_infos: *const SolAccountInfo,
        account_infos_len: u64,
        signers_seeds: *const SolSignerSeeds,
        signers_seeds_len: u64,
    ) -> u64;
    pub fn sol_curve_validate_point(curve_id: u64, point: *const u8, result: *mut u8) -> u64;
    pub fn sol_get_clock_sysvar(addr: *mut u8) -> u64;
    pub fn sol_get_rent_sysvar(addr: *mut u8) -> u64;
    pub fn sol_panic_(file: *const u8, len: u64, line: u64, column: u64) -> !;
}

#[cfg(not(target_os = "none"))]
mod host {
    //! Host stand-ins: the pure logic is tested on the host, never the syscalls. Each has the
    //! syscall's signature and contract (see the `extern "C"` block above).
    use super::*;

    /// # Safety
    /// As the on-chain `sol_log_`: every pointer valid for the lengths it is given.
    pub unsafe fn sol_log_(_message: *const u8, _len: u64) {}
    /// # Safety
    /// As the on-chain `sol_log_data`: every pointer valid for the lengths it is given.
    pub unsafe fn sol_log_data(_data: *const SolBytes, _data_len: u64) {}
    /// # Safety
    /// As the on-chain `sol_sha256`: every pointer valid for the lengths it is given.
    pub unsafe fn sol_sha256(_vals: *const SolBytes, _val_len: u64, _out: *mut u8) -> u64 {
        unimplemented!("sol_sha256 runs only on chain")
    }
    /// # Safety
    /// As the on-chain `sol_invoke_signed_c`: every pointer valid for the lengths it is given.
    pub unsafe fn sol_invoke_signed_c(
        _instruction: *const SolInstruction,
        _account_infos: *const SolAccountInfo,
        _account_infos_len: u64,
        _signers_seeds: *const SolSignerSeeds,
        _signers_seeds_len: u64,
    ) -> u64 {
        unimplemented!("sol_invoke_signed_c runs only on chain")
    }
    /// # Safety
    /// As the on-chain `sol_curve_validate_point`: every pointer valid for the lengths it is given.
    pub unsafe fn sol_curve_validate_point(_curve_id: u64, _point: *const u8, _result: *mut u8) -> u64 {
        unimplemented!("sol_curve_validate_point runs only on chain")
    }
    /// # Safety
    /// As the on-chain `sol_get_clock_sysvar`: every pointer valid for the lengths it is given.
    pub unsafe fn sol_get_clock_sysvar(_addr: *mut u8) -> u64 {
        unimplemented!("sol_get_clock_sysvar runs only on chain")
    }
    /// # Safety
    /// As the on-chain `sol_get_rent_sysvar`: every pointer valid for the lengths it is given.
    pub unsafe fn sol_get_rent_sysvar(_addr: *mut u8) -> u64 {
        unimplemented!("sol_get_rent_sysvar runs only on chain")
    }
}

#[cfg(not(target_os = "none"))]
pub use host::*;

/// Writes one line to the program log.
pub fn log(message: &[u8]) {
    // SAFETY: the pointer and length describe a live byte slice.
    unsafe { sol_log_(message.as_ptr(), message.len() as u64) }
}

/// SHA-256 of the concatenation of `parts`.
pub fn sha256(parts: &[SolBytes]) -> [u8; 32] {
    let mut out = [0u8; 32];
    // SAFETY: `parts` is a valid array of (pointer, length) pairs over live slices and `out`
    // has room for the 32-byte digest.
    unsafe { sol_sha256(parts.as_ptr(), parts.len() as u64, out.as_mut_ptr()) };
    out
}

//! Program-derived addresses.
//!
//! An address is `sha256(seeds ++ [bump] ++ program_id ++ "ProgramDerivedAddress")` for a bump
//! whose hash is *not* an ed25519 point; the canonical bump is the first such one from 255 down.
//!
//! An existing account is checked against its stored bump with one `sol_sha256`: the curve check
//! is unnecessary there because this program created the account at the canonical address.
//! A new account's canonical bump is found with `sol_sha256` + `sol_curve_validate_point`
//! (~400 CU per bump tried) instead of `sol_try_find_program_address` (1,500 CU per bump tried):
//! the same search (same curve test as the runtime), almost four times cheaper.

use crate::error::{Error, Result};
use crate::syscalls::{sha256, sol_curve_validate_point, SolBytes};
use crate::Pubkey;

const PDA_MARKER: &[u8] = b"ProgramDerivedAddress";
/// `sol_curve_validate_point` curve id of edwards25519.
const CURVE25519_EDWARDS: u64 = 0;
/// Seeds per address: this program uses at most two (plus the bump).
const MAX_SEEDS: usize = 2;

/// The address of `seeds` with `bump` under `program_id` (without the curve check).
fn hash(seeds: &[&[u8]], bump: u8, program_id: &Pubkey) -> Result<Pubkey> {
    if seeds.len() > MAX_SEEDS {
        return Err(Error::InvalidPda);
    }
    let bump = [bump];
    let mut parts = [SolBytes::new(&[]); MAX_SEEDS + 3];
    for (part, seed) in parts.iter_mut().zip(seeds) {
        *part = SolBytes::new(seed);
    }
    let n = seeds.len();
    parts[n] = SolBytes::new(&bump);
    parts[n + 1] = SolBytes::new(program_id);
    parts[n + 2] = SolBytes::new(PDA_MARKER);
    Ok(sha256(&parts[..n + 3]))
}

/// True when `bytes` decode to an ed25519 point (then they cannot be a program address).
fn is_on_curve(bytes: &Pubkey) -> bool {
    let mut unused = 0u8;
    // SAFETY: `bytes` points at 32 readable bytes; the result pointer is unused for validation.
    unsafe { sol_curve_validate_point(CURVE25519_EDWARDS, bytes.as_ptr(), &mut unused) == 0 }
}

/// `InvalidPda` unless `key` is the address of `seeds` with the stored `bump` under `program_id`.
pub fn check(seeds: &[&[u8]], bump: u8, program_id: &Pubkey, key: &Pubkey) -> Result<()> {
    if hash(seeds, bump, program_id)? == *key {
        Ok(())
    } else {
        Err(Error::InvalidPda)
    }
}

/// `InvalidPda` unless `key` is the *canonical* address of `seeds` (the highest bump, 255 down to
/// 1 like `find_program_address`, whose hash is off the curve); returns that bump.
pub fn find_and_check(seeds: &[&[u8]], program_id: &Pubkey, key: &Pubkey) -> Result<u8> {
    if seeds.len() > MAX_SEEDS {
        return Err(Error::InvalidPda);
    }
    // The slice list is built once; only the bump byte changes between attempts.
    let mut bump = [u8::MAX];
    let bump_ptr = bump.as_mut_ptr();
    let mut parts = [SolBytes::new(&[]); MAX_SEEDS + 3];
    for (part, seed) in parts.iter_mut().zip(seeds) {
        *part = SolBytes::new(seed);
    }
    let n = seeds.len();
    parts[n] = SolBytes { addr: bump_ptr, len: 1 };
    parts[n + 1] = SolBytes::new(program_id);
    parts[n + 2] = SolBytes::new(PDA_MARKER);
    let parts = &parts[..n + 3];
    loop {
        let address = sha256(parts);
        // SAFETY: `bump_ptr` points at the live local `bump`, which nothing else references.
        let current = unsafe { *bump_ptr };
        if !is_on_curve(&address) {
            return if address == *key { Ok(current) } else { Err(Error::InvalidPda) };
        }
        if current == 1 {
            return Err(Error::InvalidPda);
        }
        // SAFETY: as above; `parts` reads the byte only inside `sha256`.
        unsafe { *bump_ptr = current - 1 };
    }
}

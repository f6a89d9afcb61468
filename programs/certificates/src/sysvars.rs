//! Clock and Rent, read through their syscalls (no sysvar accounts needed).

use crate::error::{Error, Result};
use crate::syscalls::{sol_get_clock_sysvar, sol_get_rent_sysvar};

/// Bytes the runtime adds to every account's data length when computing rent.
const ACCOUNT_STORAGE_OVERHEAD: u64 = 128;

/// The cluster's unix timestamp (Clock.unix_timestamp, offset 32).
pub fn unix_timestamp() -> i64 {
    // Clock: slot, epoch_start_timestamp, epoch, leader_schedule_epoch, unix_timestamp (5 × 8).
    let mut clock = [0u64; 5];
    // SAFETY: `clock` is 40 writable, 8-aligned bytes: the size of the Clock sysvar.
    unsafe { sol_get_clock_sysvar(clock.as_mut_ptr() as *mut u8) };
    clock[4] as i64
}

/// Lamports that make an account of `data_len` bytes rent-exempt under the current Rent sysvar.
pub fn minimum_balance(data_len: usize) -> Result<u64> {
    // Rent: lamports_per_byte_year u64, exemption_threshold f64, burn_percent u8 (+ padding).
    let mut rent = [0u64; 3];
    // SAFETY: `rent` is 24 writable, 8-aligned bytes: the size of the Rent sysvar.
    unsafe { sol_get_rent_sysvar(rent.as_mut_ptr() as *mut u8) };
    exempt_minimum(rent[0], rent[1], data_len as u64)
}

/// `(128 + data_len) * lamports_per_byte_year * exemption_threshold` with the f64 threshold
/// (given as its IEEE-754 bits) decoded by integer code: the BPF target has no floating point.
/// The runtime truncates the product; thresholds with a fractional part are handled exactly as
/// long as the intermediate product fits in 64 bits (it does for every real cluster: 2.0 or 1.0).
pub fn exempt_minimum(lamports_per_byte_year: u64, threshold_bits: u64, data_len: u64) -> Result<u64> {
    let base = data_len
        .checked_add(ACCOUNT_STORAGE_OVERHEAD)
        .and_then(|bytes| bytes.checked_mul(lamports_per_byte_year))
        .ok_or(Error::ArithmeticOverflow)?;
    let exponent_bits = (threshold_bits >> 52) & 0x7ff;
    let fraction = threshold_bits & ((1u64 << 52) - 1);
    if threshold_bits >> 63 != 0 || exponent_bits == 0x7ff {
        // Negative, infinite or NaN thresholds are not a real cluster's.
        return Err(Error::ArithmeticOverflow);
    }
    if exponent_bits == 0 {
        // Zero (or subnormal, effectively zero): nothing is needed.
        return Ok(0);
    }
    // value = mantissa * 2^(exponent - 1075), mantissa with the implicit leading 1.
    let mut mantissa = fraction | (1u64 << 52);
    let mut shift: i64 = exponent_bits as i64 - 1075;
    // Drop trailing zero bits so that simple thresholds (2.0 → 1 * 2^1) stay small.
    let zeros = mantissa.trailing_zeros() as i64;
    mantissa >>= zeros;
    shift += zeros;
    let product = base.checked_mul(mantissa).ok_or(Error::ArithmeticOverflow)?;
    if shift >= 0 {
        if shift >= 64 {
            return Err(Error::ArithmeticOverflow);
        }
        let shifted = product << shift;
        if shifted >> shift != product {
            return Err(Error::ArithmeticOverflow);
        }
        Ok(shifted)
    } else if shift <= -64 {
        Ok(0)
    } else {
        Ok(product >> (-shift))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: u64 = 0x4000_0000_0000_0000; // 2.0
    const ONE: u64 = 0x3ff0_0000_0000_0000; // 1.0
    const HALF: u64 = 0x3fe0_0000_0000_0000; // 0.5

    #[test]
    fn default_rent_matches_the_runtime_formula() {
        // Solana's default: 3480 lamports per byte-year, threshold 2 years.
        for len in [0u64, 172, 210, 258] {
            assert_eq!(exempt_minimum(3480, TWO, len).unwrap(), (128 + len) * 3480 * 2);
        }
        assert_eq!(exempt_minimum(3480, TWO, 172).unwrap(), 2_088_000);
        // SIMD-0194 style: 6960 per byte with threshold 1.0 gives the same numbers.
        assert_eq!(exempt_minimum(6960, ONE, 172).unwrap(), 2_088_000);
        assert_eq!(exempt_minimum(10, HALF, 0).unwrap(), 640);
    }

    #[test]
    fn rejects_nonsense_thresholds() {
        assert_eq!(exempt_minimum(3480, 0x7ff0_0000_0000_0000, 1), Err(Error::ArithmeticOverflow));
        assert_eq!(exempt_minimum(3480, 1 << 63 | TWO, 1), Err(Error::ArithmeticOverflow));
        assert_eq!(exempt_minimum(3480, 0, 1).unwrap(), 0);
        assert_eq!(exempt_minimum(u64::MAX, TWO, 1), Err(Error::ArithmeticOverflow));
    }
}

//! One module per instruction: the accounts in order with their constraints, the Borsh
//! arguments, and `process`, which validates everything before it writes anything.

pub mod anchor_certificate;
pub mod confirm_certificate;
pub mod initialize;
pub mod issue_certificate;
pub mod mint_certificate;
pub mod record_verification;
pub mod register_issuer;
pub mod request_confirmation;
pub mod revoke_certificate;
pub mod set_issuer_status;
pub mod set_verifier;

use crate::account_info::AccountInfo;
use crate::error::{Error, Result};
use crate::SYSTEM_PROGRAM_ID;

/// `InvalidProgramId` unless `account` is the system program.
pub(crate) fn require_system_program(account: &AccountInfo) -> Result<()> {
    if *account.key() == SYSTEM_PROGRAM_ID {
        Ok(())
    } else {
        Err(Error::InvalidProgramId)
    }
}

/// `InvalidExpiry` unless `expires_at` is 0 (never) or after `now`.
pub(crate) fn require_valid_expiry(expires_at: i64, now: i64) -> Result<()> {
    if expires_at == 0 || expires_at > now {
        Ok(())
    } else {
        Err(Error::InvalidExpiry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_is_zero_or_in_the_future() {
        assert_eq!(require_valid_expiry(0, 1_000), Ok(()));
        assert_eq!(require_valid_expiry(1_001, 1_000), Ok(()));
        assert_eq!(require_valid_expiry(1_000, 1_000), Err(Error::InvalidExpiry));
        assert_eq!(require_valid_expiry(-5, 1_000), Err(Error::InvalidExpiry));
    }
}

//! `Registry` — PDA `["registry"]` — 210 bytes: the admin, up to four platform verifier keys and
//! counters.

use super::check_account;
use crate::account_info::AccountInfo;
use crate::error::{Error, Result};
use crate::{pda, Pubkey, ZERO_KEY};
use core::mem::{align_of, size_of};

/// `sha256("account:Registry")[..8]`.
pub const DISCRIMINATOR: [u8; 8] = [0x2f, 0xae, 0x6e, 0xf6, 0xb8, 0xb6, 0xfc, 0xda];
pub const SEED: &[u8] = b"registry";
pub const LEN: usize = 210;
pub const MAX_VERIFIERS: usize = 4;

#[repr(C)]
pub struct Registry {
    pub discriminator: [u8; 8],
    pub admin: Pubkey,
    /// Unused slots are zero keys; used slots are packed at the front.
    pub verifiers: [Pubkey; MAX_VERIFIERS],
    pub verifier_count: u8,
    pub bump: u8,
    pub issuer_count: [u8; 8],
    pub certificate_count: [u8; 8],
    pub verified_count: [u8; 8],
    pub revoked_count: [u8; 8],
    pub minted_count: [u8; 8],
}

const _: () = assert!(size_of::<Registry>() == LEN && align_of::<Registry>() == 1);

impl Registry {
    /// The registry account, read-only: owner, length, discriminator and PDA checked.
    pub fn load<'a>(account: &'a AccountInfo, program_id: &Pubkey) -> Result<&'a Registry> {
        check_account(account, program_id, &DISCRIMINATOR, LEN)?;
        // SAFETY: the data holds at least LEN bytes and Registry is a repr(C) struct of byte
        // arrays with alignment 1, so any bytes are a valid value.
        let registry = unsafe { &*(account.data().as_ptr() as *const Registry) };
        pda::check(&[SEED], registry.bump, program_id, account.key())?;
        Ok(registry)
    }

    /// The registry account, writable: as `load`, and the account must be writable.
    ///
    /// # Safety
    /// No other reference to this account's data may be live (see `AccountInfo::data_mut`).
    // The loader's buffer is mutable; exclusivity is the caller's contract (above).
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn load_mut<'a>(account: &'a AccountInfo, program_id: &Pubkey) -> Result<&'a mut Registry> {
        account.require_writable()?;
        Self::load(account, program_id)?;
        Ok(&mut *(account.data_mut().as_mut_ptr() as *mut Registry))
    }

    pub fn is_verifier(&self, key: &Pubkey) -> bool {
        *key != ZERO_KEY && self.verifiers.iter().any(|v| v == key)
    }

    /// Adds a verifier; a key already present is left as it is.
    pub fn add_verifier(&mut self, key: &Pubkey) -> Result<()> {
        if self.is_verifier(key) {
            return Ok(());
        }
        let count = self.verifier_count as usize;
        if count >= MAX_VERIFIERS {
            return Err(Error::VerifierListFull);
        }
        self.verifiers[count] = *key;
        self.verifier_count += 1;
        Ok(())
    }

    /// Removes a verifier, keeping the used slots packed at the front.
    pub fn remove_verifier(&mut self, key: &Pubkey) -> Result<()> {
        let count = (self.verifier_count as usize).min(MAX_VERIFIERS);
        let index = match self.verifiers[..count].iter().position(|v| v == key) {
            Some(index) if *key != ZERO_KEY => index,
            _ => return Err(Error::VerifierNotFound),
        };
        let last = count - 1;
        self.verifiers[index] = self.verifiers[last];
        self.verifiers[last] = ZERO_KEY;
        self.verifier_count -= 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty() -> Registry {
        Registry {
            discriminator: DISCRIMINATOR,
            admin: [1; 32],
            verifiers: [ZERO_KEY; 4],
            verifier_count: 0,
            bump: 255,
            issuer_count: [0; 8],
            certificate_count: [0; 8],
            verified_count: [0; 8],
            revoked_count: [0; 8],
            minted_count: [0; 8],
        }
    }

    #[test]
    fn field_offsets_match_the_spec() {
        let r = empty();
        let base = &r as *const Registry as usize;
        let offset = |p: *const u8| p as usize - base;
        assert_eq!(offset(r.admin.as_ptr()), 8);
        assert_eq!(offset(r.verifiers.as_ptr() as *const u8), 40);
        assert_eq!(offset(&r.verifier_count), 168);
        assert_eq!(offset(&r.bump), 169);
        assert_eq!(offset(r.issuer_count.as_ptr()), 170);
        assert_eq!(offset(r.certificate_count.as_ptr()), 178);
        assert_eq!(offset(r.verified_count.as_ptr()), 186);
        assert_eq!(offset(r.revoked_count.as_ptr()), 194);
        assert_eq!(offset(r.minted_count.as_ptr()), 202);
    }

    #[test]
    fn verifier_set_stays_packed() {
        let mut r = empty();
        for k in 1..=4u8 {
            r.add_verifier(&[k; 32]).unwrap();
        }
        assert_eq!(r.add_verifier(&[9; 32]), Err(Error::VerifierListFull));
        r.add_verifier(&[2; 32]).unwrap(); // already present: no-op
        r.remove_verifier(&[2; 32]).unwrap();
        assert_eq!(r.verifier_count, 3);
        assert_eq!(r.verifiers, [[1; 32], [4; 32], [3; 32], ZERO_KEY]);
        assert!(!r.is_verifier(&[2; 32]));
        assert!(!r.is_verifier(&ZERO_KEY));
        assert_eq!(r.remove_verifier(&[2; 32]), Err(Error::VerifierNotFound));
        assert_eq!(r.remove_verifier(&ZERO_KEY), Err(Error::VerifierNotFound));
    }
}

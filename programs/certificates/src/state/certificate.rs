//! `Certificate` — PDA `["certificate", sha256]` — 172 bytes. The hash itself is not stored: the
//! address commits to it, and every instruction re-checks the address against its `hash` argument.

use super::check_account;
use crate::account_info::AccountInfo;
use crate::error::{Error, Result};
use crate::{pda, Pubkey};
use core::mem::{align_of, size_of};

/// `sha256("account:Certificate")[..8]`.
pub const DISCRIMINATOR: [u8; 8] = [0xca, 0xe5, 0xde, 0xdc, 0x74, 0x14, 0x4a, 0x43];
pub const SEED: &[u8] = b"certificate";
pub const LEN: usize = 172;

/// `CertificateStatus`.
pub const STATUS_PENDING: u8 = 0;
pub const STATUS_VERIFIED: u8 = 1;
pub const STATUS_REJECTED: u8 = 2;
pub const STATUS_REVOKED: u8 = 3;

/// `TrustTier`.
pub const TIER_NONE: u8 = 0;
pub const TIER_PLATFORM_VERIFIED: u8 = 1;
pub const TIER_ISSUER_CONFIRMED: u8 = 2;

#[repr(C)]
pub struct Certificate {
    pub discriminator: [u8; 8],
    pub holder: Pubkey,
    /// With `tier == TIER_ISSUER_CONFIRMED`: the issuer authority that issued or confirmed it.
    /// Otherwise: the issuer authority the holder asked to confirm it (a pending request), zero
    /// if none. So "confirmed by an issuer" is the tier, never merely a non-zero `issuer`.
    pub issuer: Pubkey,
    /// Key that recorded the latest verdict or the revocation; zero if none.
    pub verifier: Pubkey,
    /// Zero until minted.
    pub nft_mint: Pubkey,
    pub anchored_at: [u8; 8],
    pub verified_at: [u8; 8],
    pub revoked_at: [u8; 8],
    /// 0 = never expires.
    pub expires_at: [u8; 8],
    pub status: u8,
    pub tier: u8,
    pub reason_code: u8,
    pub bump: u8,
}

const _: () = assert!(size_of::<Certificate>() == LEN && align_of::<Certificate>() == 1);

impl Certificate {
    /// The certificate of `hash`, writable: owner, length, discriminator checked, and the address
    /// must be the PDA of `hash` with the stored bump.
    ///
    /// # Safety
    /// No other reference to this account's data may be live (see `AccountInfo::data_mut`).
    // The loader's buffer is mutable; exclusivity is the caller's contract (above).
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn load_mut<'a>(account: &'a AccountInfo, program_id: &Pubkey, hash: &[u8; 32]) -> Result<&'a mut Certificate> {
        account.require_writable()?;
        check_account(account, program_id, &DISCRIMINATOR, LEN)?;
        let certificate = &mut *(account.data_mut().as_mut_ptr() as *mut Certificate);
        pda::check(&[SEED, hash], certificate.bump, program_id, account.key())?;
        Ok(certificate)
    }

    /// The institution's word: issued by an issuer, or confirmed by one at the holder's request.
    pub fn is_issuer_confirmed(&self) -> bool {
        self.tier == TIER_ISSUER_CONFIRMED
    }

    /// `expires_at != 0 && now > expires_at`.
    pub fn is_expired(&self, now: i64) -> bool {
        let expires_at = i64::from_le_bytes(self.expires_at);
        expires_at != 0 && now > expires_at
    }

    pub fn require_not_expired(&self, now: i64) -> Result<()> {
        if self.is_expired(now) {
            Err(Error::CertificateExpired)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A record of holder `[1; 32]` with this status, tier and issuer field (never expires).
    pub(crate) fn record(status: u8, tier: u8, issuer: Pubkey) -> Certificate {
        Certificate {
            discriminator: DISCRIMINATOR,
            holder: [1; 32],
            issuer,
            verifier: [0; 32],
            nft_mint: [0; 32],
            anchored_at: [0; 8],
            verified_at: [0; 8],
            revoked_at: [0; 8],
            expires_at: [0; 8],
            status,
            tier,
            reason_code: 0,
            bump: 254,
        }
    }

    fn with_expiry(expires_at: i64) -> Certificate {
        Certificate { expires_at: expires_at.to_le_bytes(), ..record(STATUS_VERIFIED, TIER_PLATFORM_VERIFIED, [0; 32]) }
    }

    #[test]
    fn issuer_confirmed_is_the_tier_not_a_named_issuer() {
        assert!(!record(STATUS_PENDING, TIER_NONE, [5; 32]).is_issuer_confirmed());
        assert!(!record(STATUS_VERIFIED, TIER_PLATFORM_VERIFIED, [5; 32]).is_issuer_confirmed());
        assert!(record(STATUS_REVOKED, TIER_ISSUER_CONFIRMED, [5; 32]).is_issuer_confirmed());
    }

    #[test]
    fn expired_only_after_a_nonzero_expiry() {
        assert!(!with_expiry(0).is_expired(i64::MAX));
        assert!(!with_expiry(100).is_expired(100));
        assert!(with_expiry(100).is_expired(101));
        assert_eq!(with_expiry(100).require_not_expired(101), Err(Error::CertificateExpired));
    }

    #[test]
    fn field_offsets_match_the_spec() {
        let c = with_expiry(0);
        let base = &c as *const Certificate as usize;
        let offset = |p: *const u8| p as usize - base;
        assert_eq!(offset(c.holder.as_ptr()), 8);
        assert_eq!(offset(c.issuer.as_ptr()), 40);
        assert_eq!(offset(c.verifier.as_ptr()), 72);
        assert_eq!(offset(c.nft_mint.as_ptr()), 104);
        assert_eq!(offset(c.anchored_at.as_ptr()), 136);
        assert_eq!(offset(c.expires_at.as_ptr()), 160);
        assert_eq!(offset(&c.status), 168);
        assert_eq!(offset(&c.bump), 171);
    }
}

//! `anchor_certificate(hash: [u8; 32], expires_at: i64)`: a platform verifier anchors a file's
//! SHA-256 for a holder; status pending. A hash can be anchored once.
//!
//! Accounts:
//! 0. `certificate` — writable, PDA `["certificate", hash]`, not yet created
//! 1. `holder` — any key (recorded as the holder)
//! 2. `verifier` — signer, one of `registry.verifiers`
//! 3. `payer` — signer, writable
//! 4. `registry` — writable, PDA `["registry"]` (certificate_count)
//! 5. `system_program`

use super::{require_system_program, require_valid_expiry};
use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::certificate::{self, Certificate};
use crate::state::{increment, registry::Registry};
use crate::system::{self, NewAccount};
use crate::{events, pda, sysvars, Pubkey};

pub const DISCRIMINATOR: [u8; 8] = [0x22, 0xb2, 0xe3, 0xa1, 0xf9, 0xb1, 0x4f, 0x6b];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [certificate, holder, verifier, payer, registry, system_program, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let hash = reader.array::<32>()?;
    let expires_at = reader.i64()?;
    reader.finish()?;
    verifier.require_signer()?;
    payer.require_signer()?;
    payer.require_writable()?;
    require_system_program(system_program)?;
    // SAFETY: the only reference to the registry's data; the certificate is a different PDA.
    let registry = unsafe { Registry::load_mut(registry, program_id)? };
    if !registry.is_verifier(verifier.key()) {
        return Err(Error::NotAVerifier);
    }
    let now = sysvars::unix_timestamp();
    require_valid_expiry(expires_at, now)?;

    create(&NewCertificate { program_id, certificate, payer, holder: holder.key(), issued_by: None, hash, expires_at, now })?;
    increment(&mut registry.certificate_count)
}

/// What `anchor_certificate` and `issue_certificate` record.
pub(crate) struct NewCertificate<'a> {
    pub program_id: &'a Pubkey,
    pub certificate: &'a AccountInfo,
    pub payer: &'a AccountInfo,
    pub holder: &'a Pubkey,
    /// The issuer authority for `issue_certificate` (the record starts verified and
    /// issuer-confirmed); `None` for `anchor_certificate` (pending, no issuer).
    pub issued_by: Option<&'a Pubkey>,
    pub hash: &'a [u8; 32],
    pub expires_at: i64,
    pub now: i64,
}

/// Creates the certificate PDA of `hash` (`HashAlreadyAnchored` if it exists), writes the record
/// and emits `CertificateAnchored`.
pub(crate) fn create(new: &NewCertificate) -> Result<()> {
    let account = new.certificate;
    account.require_writable()?;
    if !account.is_uninitialized() {
        return Err(Error::HashAlreadyAnchored);
    }
    let bump = pda::find_and_check(&[certificate::SEED, new.hash], new.program_id, account.key())?;

    system::create_pda_account(&NewAccount {
        payer: new.payer,
        account,
        space: certificate::LEN,
        owner: new.program_id,
        seeds: &[certificate::SEED, new.hash, &[bump]],
    })?;
    // SAFETY: the account was just created by this instruction; this is the only reference, and
    // it holds LEN bytes for the alignment-1 Certificate struct. Fresh data is zeroed, so only
    // non-zero fields are written.
    let state = unsafe { &mut *(account.data_mut().as_mut_ptr() as *mut Certificate) };
    state.discriminator = certificate::DISCRIMINATOR;
    state.holder = *new.holder;
    state.anchored_at = new.now.to_le_bytes();
    state.expires_at = new.expires_at.to_le_bytes();
    state.bump = bump;
    match new.issued_by {
        Some(authority) => {
            state.issuer = *authority;
            state.verifier = *authority;
            state.verified_at = new.now.to_le_bytes();
            state.status = certificate::STATUS_VERIFIED;
            state.tier = certificate::TIER_ISSUER_CONFIRMED;
        }
        None => {
            state.status = certificate::STATUS_PENDING;
            state.tier = certificate::TIER_NONE;
        }
    }

    emit_anchored(account.key(), new.hash, new.holder, &state.issuer, new.expires_at);
    Ok(())
}

/// `CertificateAnchored{certificate, hash, holder, issuer, expires_at}`.
pub(crate) fn emit_anchored(certificate: &Pubkey, hash: &[u8; 32], holder: &Pubkey, issuer: &Pubkey, expires_at: i64) {
    let mut event = Writer::<{ 8 + 32 * 4 + 8 }>::new();
    event
        .put(&events::CERTIFICATE_ANCHORED)
        .put(certificate)
        .put(hash)
        .put(holder)
        .put(issuer)
        .i64(expires_at);
    events::emit(event.as_slice());
}

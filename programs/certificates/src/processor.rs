//! Dispatch on the 8-byte Anchor instruction discriminator (`sha256("global:<name>")[..8]`).

use crate::entrypoint::AccountInfo;
use crate::error::{Error, Result};
use crate::instructions::*;
use crate::Pubkey;

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], data: &[u8]) -> Result<()> {
    let Some((discriminator, args)) = data.split_first_chunk::<8>() else {
        return Err(Error::InvalidInstruction);
    };
    match *discriminator {
        initialize::DISCRIMINATOR => initialize::process(program_id, accounts, args),
        set_verifier::DISCRIMINATOR => set_verifier::process(program_id, accounts, args),
        register_issuer::DISCRIMINATOR => register_issuer::process(program_id, accounts, args),
        set_issuer_status::DISCRIMINATOR => set_issuer_status::process(program_id, accounts, args),
        anchor_certificate::DISCRIMINATOR => anchor_certificate::process(program_id, accounts, args),
        issue_certificate::DISCRIMINATOR => issue_certificate::process(program_id, accounts, args),
        confirm_certificate::DISCRIMINATOR => confirm_certificate::process(program_id, accounts, args),
        record_verification::DISCRIMINATOR => record_verification::process(program_id, accounts, args),
        mint_certificate::DISCRIMINATOR => mint_certificate::process(program_id, accounts, args),
        revoke_certificate::DISCRIMINATOR => revoke_certificate::process(program_id, accounts, args),
        _ => Err(Error::InvalidInstruction),
    }
}

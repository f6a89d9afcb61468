//! Dispatch on the 8-byte Anchor instruction discriminator (`sha256("global:<name>")[..8]`).

use crate::account_info::AccountInfo;
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
        request_confirmation::DISCRIMINATOR => request_confirmation::process(program_id, accounts, args),
        confirm_certificate::DISCRIMINATOR => confirm_certificate::process(program_id, accounts, args),
        record_verification::DISCRIMINATOR => record_verification::process(program_id, accounts, args),
        mint_certificate::DISCRIMINATOR => mint_certificate::process(program_id, accounts, args),
        revoke_certificate::DISCRIMINATOR => revoke_certificate::process(program_id, accounts, args),
        _ => Err(Error::InvalidInstruction),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: Pubkey = [7; 32];

    #[test]
    fn short_or_unknown_data_is_invalid_instruction() {
        assert_eq!(process(&PROGRAM, &[], &[]), Err(Error::InvalidInstruction));
        assert_eq!(process(&PROGRAM, &[], &[0xaf, 0xaf, 0x6d]), Err(Error::InvalidInstruction));
        assert_eq!(process(&PROGRAM, &[], &[0; 8]), Err(Error::InvalidInstruction));
    }

    #[test]
    fn every_instruction_needs_its_accounts() {
        for discriminator in [
            initialize::DISCRIMINATOR,
            set_verifier::DISCRIMINATOR,
            register_issuer::DISCRIMINATOR,
            set_issuer_status::DISCRIMINATOR,
            anchor_certificate::DISCRIMINATOR,
            issue_certificate::DISCRIMINATOR,
            request_confirmation::DISCRIMINATOR,
            confirm_certificate::DISCRIMINATOR,
            record_verification::DISCRIMINATOR,
            mint_certificate::DISCRIMINATOR,
            revoke_certificate::DISCRIMINATOR,
        ] {
            assert_eq!(process(&PROGRAM, &[], &discriminator), Err(Error::NotEnoughAccounts));
        }
    }
}

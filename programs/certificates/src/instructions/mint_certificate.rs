//! `mint_certificate(hash: [u8; 32])`: records the soulbound Token-2022 NFT of a verified
//! certificate. The mint is made by earlier instructions of the same transaction; this checks
//! that it is exactly this certificate's fixed-supply, non-transferable token, held by the holder,
//! and records it once.
//!
//! Accounts:
//! 0. `certificate` — writable, PDA `["certificate", hash]`
//! 1. `registry` — writable, PDA `["registry"]` (minted_count)
//! 2. `holder` — signer, `certificate.holder`
//! 3. `mint` — Token-2022 mint (see `token2022::check_mint`)
//! 4. `holder_token_account` — Token-2022 account of `mint`, owner holder, amount 1
//! 5. `token_program` — Token-2022

use crate::account_info::AccountInfo;
use crate::borsh::{Reader, Writer};
use crate::error::{Error, Result};
use crate::state::certificate::{self, Certificate};
use crate::state::{increment, registry::Registry};
use crate::token2022::{self, Expected};
use crate::{events, sysvars, Pubkey, TOKEN_2022_PROGRAM_ID, ZERO_KEY};

pub const DISCRIMINATOR: [u8; 8] = [0x35, 0x02, 0x68, 0x54, 0x33, 0xc5, 0xb3, 0x0a];

pub fn process(program_id: &Pubkey, accounts: &[AccountInfo], args: &[u8]) -> Result<()> {
    let [certificate_account, registry, holder, mint, token_account, token_program, ..] = accounts else {
        return Err(Error::NotEnoughAccounts);
    };
    let mut reader = Reader::new(args);
    let hash = reader.array::<32>()?;
    reader.finish()?;
    if *token_program.key() != TOKEN_2022_PROGRAM_ID {
        return Err(Error::InvalidProgramId);
    }
    // SAFETY: the only reference to the certificate's data; the registry is another account.
    let state = unsafe { Certificate::load_mut(certificate_account, program_id, hash)? };
    // SAFETY: the only reference to the registry's data.
    let registry = unsafe { Registry::load_mut(registry, program_id)? };
    if state.holder != *holder.key() {
        return Err(Error::NotHolder);
    }
    holder.require_signer()?;
    if state.status != certificate::STATUS_VERIFIED {
        return Err(Error::NotVerified);
    }
    state.require_not_expired(sysvars::unix_timestamp())?;
    if state.nft_mint != ZERO_KEY {
        return Err(Error::AlreadyMinted);
    }
    if *mint.owner() != TOKEN_2022_PROGRAM_ID {
        return Err(Error::InvalidMint);
    }
    token2022::check_mint(mint.data(), &Expected { mint: mint.key(), hash, certificate: certificate_account.key() })?;
    if *token_account.owner() != TOKEN_2022_PROGRAM_ID {
        return Err(Error::InvalidTokenAccount);
    }
    token2022::check_token_account(token_account.data(), mint.key(), holder.key())?;

    state.nft_mint = *mint.key();
    increment(&mut registry.minted_count)?;

    let mut event = Writer::<{ 8 + 32 * 4 }>::new();
    event
        .put(&events::CERTIFICATE_MINTED)
        .put(certificate_account.key())
        .put(hash)
        .put(mint.key())
        .put(holder.key());
    events::emit(event.as_slice());
    Ok(())
}

//! Attesta certificate registry: anchors certificate SHA-256s as PDAs, records verification
//! verdicts, issuers and revocations, and the soulbound Token-2022 mint of verified certificates.
//!
//! Zero crate dependencies; Anchor's ABI (discriminators, Borsh, AnchorError logs). The contract
//! (accounts, offsets, instructions, errors) is `SPEC.md`. The program id is read from the
//! loader's input, never hard-coded.
#![no_std]

#[cfg(test)]
extern crate std;

pub mod account_info;
pub mod base58;
pub mod borsh;
pub mod entrypoint;
pub mod error;
pub mod events;
pub mod instructions;
pub mod pda;
pub mod processor;
pub mod state;
pub mod syscalls;
pub mod system;
pub mod sysvars;
pub mod token2022;

/// The system program (all zero bytes).
pub const SYSTEM_PROGRAM_ID: [u8; 32] = [0; 32];

/// `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`.
pub const TOKEN_2022_PROGRAM_ID: [u8; 32] = [
    0x06, 0xdd, 0xf6, 0xe1, 0xee, 0x75, 0x8f, 0xde, 0x18, 0x42, 0x5d, 0xbc, 0xe4, 0x6c, 0xcd, 0xda,
    0xb6, 0x1a, 0xfc, 0x4d, 0x83, 0xb9, 0x0d, 0x27, 0xfe, 0xbd, 0xf9, 0x28, 0xd8, 0xa1, 0x8b, 0xfc,
];

/// A 32-byte public key.
pub type Pubkey = [u8; 32];

/// The "none" key.
pub const ZERO_KEY: Pubkey = [0; 32];

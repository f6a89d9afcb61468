import { PublicKey } from '@solana/web3.js';

/** The Attesta `certificates` program on localnet and the embedded chain (SPEC.md). */
export const CERTIFICATES_PROGRAM_ID = new PublicKey('AttWHDUtne5ERZ7SgrPXbeYsUtemtVs8KAm1Y2dubrKE');

/**
 * Certificate NFTs are Token-2022 mints (NonTransferable + MetadataPointer + TokenMetadata). The token
 * programs' addresses are written out rather than imported from @solana/spl-token, which every server
 * start would then load (~0.15 s, #15) for three constants; ids.test.ts holds them equal to its own.
 */
export const TOKEN_2022_ID = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export const ASSOCIATED_TOKEN_ID = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
/** The original SPL Token program (the JSON-RPC facade parses its accounts too). */
export const TOKEN_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

/** "zero key" means "none" in every account field (SPEC.md). */
export const ZERO_KEY = new PublicKey(new Uint8Array(32));

/** NFT symbol written into the token metadata of every certificate mint. */
export const CERTIFICATE_SYMBOL = 'ATST';

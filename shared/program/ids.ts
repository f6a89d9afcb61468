import { PublicKey } from '@solana/web3.js';
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';

/** The Attesta `certificates` program on localnet and the embedded chain (SPEC.md). */
export const CERTIFICATES_PROGRAM_ID = new PublicKey('AttWHDUtne5ERZ7SgrPXbeYsUtemtVs8KAm1Y2dubrKE');

/** Certificate NFTs are Token-2022 mints (NonTransferable + MetadataPointer + TokenMetadata). */
export const TOKEN_2022_ID: PublicKey = TOKEN_2022_PROGRAM_ID;
export const ASSOCIATED_TOKEN_ID: PublicKey = ASSOCIATED_TOKEN_PROGRAM_ID;

/** "zero key" means "none" in every account field (SPEC.md). */
export const ZERO_KEY = new PublicKey(new Uint8Array(32));

/** NFT symbol written into the token metadata of every certificate mint. */
export const CERTIFICATE_SYMBOL = 'ATST';

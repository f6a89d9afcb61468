/**
 * Minting verified certificates as soulbound Token-2022 NFTs through the holder's wallet.
 *
 * prepare (./prepare.ts) → permanent copies, the mint transaction as a prepared wallet transaction
 *   (services/wallet-tx), a `mint_attempt`.
 * submit (./submit.ts) → the wallet's signed transaction checked against the attempt, claimed
 *   (one in flight per certificate), sent, read back and recorded.
 * reconcile (./reconcile.ts) → the chain record's `nft_mint` is the source of truth: every entry
 *   point reads it first and, when set, only reconciles the DB; `reconcileMints` finishes attempts a
 *   crash left in flight.
 */
export { prepareMint } from './prepare';
export { submitMint } from './submit';
export { reconcileCertificateMint, reconcileMints } from './reconcile';
export { MINT_MESSAGES, type MintContext, type MintFaults, type MintResult, type MintServices, type PreparedMint } from './types';
export type { CertificateNft } from './onchain';
/** Reads a certificate NFT back and checks it (./onchain.ts, with the SPL Token libraries it loads when first used). */
export const readCertificateNft = async (...args: Parameters<typeof import('./onchain').readCertificateNft>) => (await import('./onchain')).readCertificateNft(...args);
export { mintOriginProblem, permanentOrigin, warnMintOrigin } from './origin';
export { shortenName, nftMetadataJson, ONCHAIN_NAME_MAX } from './metadata';
export type { MintAttemptRow, MintAttemptStatus } from '../../db/schema';

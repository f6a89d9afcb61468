import { PACKET_DATA_SIZE, PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import {
  AuthorityType,
  ExtensionType,
  LENGTH_SIZE,
  TYPE_SIZE,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMetadataPointerInstruction,
  createInitializeMintInstruction,
  createInitializeNonTransferableMintInstruction,
  createMintToInstruction,
  createSetAuthorityInstruction,
  getAssociatedTokenAddressSync,
  getMintLen,
} from '@solana/spl-token';
import {
  createInitializeInstruction,
  createUpdateAuthorityInstruction,
  createUpdateFieldInstruction,
  pack,
  type TokenMetadata,
} from '@solana/spl-token-metadata';
import { ASSOCIATED_TOKEN_ID, CERTIFICATES_PROGRAM_ID, CERTIFICATE_SYMBOL, TOKEN_2022_ID } from './ids';
import { certificatePda, registryPda } from './pda';
import { instructionDiscriminator } from './discriminators';
import { toHex } from './codec';

export interface SoulboundMintParams {
  /** Pays rent and fees; temporary mint and metadata-update authority, both revoked in the same tx. */
  payer: PublicKey;
  /** The certificate's holder: receives the token and signs `mint_certificate`. */
  holder: PublicKey;
  /** A fresh keypair's public key; the keypair signs the transaction. */
  mint: PublicKey;
  /** The document's SHA-256 (32 bytes). */
  hash: Uint8Array;
  /** Certificate title → metadata `name`. */
  title: string;
  /** Public verification link → metadata `uri`. */
  uri: string;
  programId?: PublicKey;
  /** Rent-exempt minimum for a data length; defaults to the cluster-default rent (all clusters use it). */
  rentExemptLamports?: (dataLength: number) => number | bigint;
}

// Rent::default(): 3480 lamports per byte-year, 2 years exempt, 128 bytes of account overhead.
export const defaultRentExemptLamports = (dataLength: number) => (dataLength + 128) * 3480 * 2;

/** Additional metadata fields that `mint_certificate` checks (SPEC.md). */
export const METADATA_FIELD_SHA256 = 'sha256';
export const METADATA_FIELD_RECORD = 'record';

/** Metadata as it will be stored on the mint, after the update authority is dropped. */
export function certificateTokenMetadata(p: Pick<SoulboundMintParams, 'mint' | 'hash' | 'title' | 'uri' | 'programId'>): TokenMetadata {
  const [record] = certificatePda(p.hash, p.programId ?? CERTIFICATES_PROGRAM_ID);
  return {
    mint: p.mint,
    updateAuthority: undefined,
    name: p.title,
    symbol: CERTIFICATE_SYMBOL,
    uri: p.uri,
    additionalMetadata: [
      [METADATA_FIELD_SHA256, toHex(p.hash)],
      [METADATA_FIELD_RECORD, record.toBase58()],
    ],
  };
}

/** Bytes of the mint account before and after the token-metadata TLV entry is appended. */
export function certificateMintSpace(metadata: TokenMetadata) {
  const space = getMintLen([ExtensionType.NonTransferable, ExtensionType.MetadataPointer]);
  return { space, finalSpace: space + TYPE_SIZE + LENGTH_SIZE + pack(metadata).length };
}

/** Our `mint_certificate` instruction, encoded without Anchor (discriminator ++ hash). */
export function mintCertificateInstruction(p: {
  holder: PublicKey;
  mint: PublicKey;
  hash: Uint8Array;
  programId?: PublicKey;
}): TransactionInstruction {
  const programId = p.programId ?? CERTIFICATES_PROGRAM_ID;
  const [certificate] = certificatePda(p.hash, programId);
  const [registry] = registryPda(programId);
  const holderTokenAccount = getAssociatedTokenAddressSync(p.mint, p.holder, false, TOKEN_2022_ID, ASSOCIATED_TOKEN_ID);
  const data = new Uint8Array(40);
  data.set(instructionDiscriminator('mint_certificate'), 0);
  data.set(p.hash, 8);
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: certificate, isSigner: false, isWritable: true },
      { pubkey: registry, isSigner: false, isWritable: true },
      { pubkey: p.holder, isSigner: true, isWritable: false },
      { pubkey: p.mint, isSigner: false, isWritable: false },
      { pubkey: holderTokenAccount, isSigner: false, isWritable: false },
      { pubkey: TOKEN_2022_ID, isSigner: false, isWritable: false },
    ],
    data: Buffer.from(data),
  });
}

/**
 * Every instruction of the soulbound mint, by name and in order. Exposed so tests can swap one
 * step for a faulty one; applications use {@link buildSoulboundMintInstructions}.
 */
export function soulboundMintSteps(p: SoulboundMintParams) {
  const programId = p.programId ?? CERTIFICATES_PROGRAM_ID;
  const metadata = certificateTokenMetadata({ ...p, programId });
  const { space, finalSpace } = certificateMintSpace(metadata);
  const holderTokenAccount = getAssociatedTokenAddressSync(p.mint, p.holder, false, TOKEN_2022_ID, ASSOCIATED_TOKEN_ID);
  const [, hashHex] = metadata.additionalMetadata[0];
  const [, recordB58] = metadata.additionalMetadata[1];
  const steps = {
    // Only the fixed part is allocated now; token-metadata reallocs into the prepaid lamports.
    createMintAccount: SystemProgram.createAccount({
      fromPubkey: p.payer,
      newAccountPubkey: p.mint,
      space,
      lamports: Number((p.rentExemptLamports ?? defaultRentExemptLamports)(finalSpace)),
      programId: TOKEN_2022_ID,
    }),
    initNonTransferable: createInitializeNonTransferableMintInstruction(p.mint, TOKEN_2022_ID),
    // No pointer authority: the pointer can never be redirected.
    initMetadataPointer: createInitializeMetadataPointerInstruction(p.mint, null, p.mint, TOKEN_2022_ID),
    // createInitializeMintInstruction emits InitializeMint2 (no rent sysvar account) in 0.4.x.
    initMint: createInitializeMintInstruction(p.mint, 0, p.payer, null, TOKEN_2022_ID),
    initMetadata: createInitializeInstruction({
      programId: TOKEN_2022_ID,
      metadata: p.mint,
      updateAuthority: p.payer,
      mint: p.mint,
      mintAuthority: p.payer,
      name: metadata.name,
      symbol: metadata.symbol,
      uri: metadata.uri,
    }),
    setFieldSha256: createUpdateFieldInstruction({
      programId: TOKEN_2022_ID,
      metadata: p.mint,
      updateAuthority: p.payer,
      field: METADATA_FIELD_SHA256,
      value: hashHex,
    }),
    setFieldRecord: createUpdateFieldInstruction({
      programId: TOKEN_2022_ID,
      metadata: p.mint,
      updateAuthority: p.payer,
      field: METADATA_FIELD_RECORD,
      value: recordB58,
    }),
    // Metadata becomes immutable.
    dropUpdateAuthority: createUpdateAuthorityInstruction({
      programId: TOKEN_2022_ID,
      metadata: p.mint,
      oldAuthority: p.payer,
      newAuthority: null,
    }),
    createHolderAccount: createAssociatedTokenAccountIdempotentInstruction(
      p.payer,
      holderTokenAccount,
      p.holder,
      p.mint,
      TOKEN_2022_ID,
      ASSOCIATED_TOKEN_ID,
    ),
    mintOne: createMintToInstruction(p.mint, holderTokenAccount, p.payer, 1, [], TOKEN_2022_ID),
    // Supply is fixed at 1 forever.
    dropMintAuthority: createSetAuthorityInstruction(p.mint, p.payer, AuthorityType.MintTokens, null, [], TOKEN_2022_ID),
    mintCertificate: mintCertificateInstruction({ holder: p.holder, mint: p.mint, hash: p.hash, programId }),
  };
  return { steps, holderTokenAccount, metadata, space, finalSpace };
}

export type SoulboundMintStep = keyof ReturnType<typeof soulboundMintSteps>['steps'];

/**
 * The instructions of one transaction that mints a certificate as a soulbound Token-2022 NFT and
 * records it on chain. Signers: `payer`, `mint` (fresh keypair), `holder`.
 */
export function buildSoulboundMintInstructions(p: SoulboundMintParams): TransactionInstruction[] {
  return Object.values(soulboundMintSteps(p).steps);
}

/**
 * Serialized size of the whole mint transaction (legacy format, 3 signatures). It must not exceed
 * PACKET_DATA_SIZE (1232 bytes): title and uri share about 150 bytes, so shorten a long title.
 */
export function soulboundMintTransactionSize(p: SoulboundMintParams): number {
  const tx = new Transaction({ feePayer: p.payer, recentBlockhash: PublicKey.default.toBase58() });
  tx.add(...buildSoulboundMintInstructions(p));
  const message = tx.serializeMessage();
  const signers = tx.compileMessage().header.numRequiredSignatures;
  return 1 + 64 * signers + message.length; // compact-u16 count (< 128) + signatures + message
}

export const fitsInOneTransaction = (p: SoulboundMintParams) => soulboundMintTransactionSize(p) <= PACKET_DATA_SIZE;

import { PublicKey } from '@solana/web3.js';
import { ExtensionType, getAssociatedTokenAddressSync, getExtensionData, getExtensionTypes, getMetadataPointerState, unpackAccount, unpackMint } from '@solana/spl-token';
import { unpack as unpackTokenMetadata } from '@solana/spl-token-metadata';
import { ASSOCIATED_TOKEN_ID, TOKEN_2022_ID } from '../../../../shared/program/ids';
import { METADATA_FIELD_RECORD, METADATA_FIELD_SHA256 } from '../../../../shared/program/mint';
import { toHex } from '../../../../shared/program/codec';
import type { AccountSnapshot, ChainService } from '../chain';

export interface CertificateNft {
  mint: string;
  holderTokenAccount: string;
  name: string;
  symbol: string;
  uri: string;
  sha256: string;
  record: string;
  supply: bigint;
  extensions: string[];
}

export class InvalidCertificateNftError extends Error {}

const asInfo = (a: AccountSnapshot) => ({ data: Buffer.from(a.data), owner: new PublicKey(a.owner), lamports: Number(a.lamports), executable: a.executable, rentEpoch: 0 });

/**
 * Reads a certificate NFT back from the chain and checks what the product promises: a Token-2022
 * mint, supply 1 with 0 decimals, no mint or freeze authority, NonTransferable, a MetadataPointer to
 * itself, immutable TokenMetadata naming the hash and the record, and the holder's ATA holding it.
 * (The program checked all of this inside the mint transaction; this proves it to our DB.)
 */
export async function readCertificateNft(chain: Pick<ChainService, 'getAccountInfo'>, p: { mint: PublicKey; holder: PublicKey; hash: Uint8Array; record: PublicKey }): Promise<CertificateNft> {
  const fail = (why: string): never => {
    throw new InvalidCertificateNftError(`Mint ${p.mint.toBase58()}: ${why}`);
  };
  const acc = await chain.getAccountInfo(p.mint);
  if (!acc) return fail('account not found');
  if (acc.owner !== TOKEN_2022_ID.toBase58()) fail('not a Token-2022 account');
  const mint = unpackMint(p.mint, asInfo(acc), TOKEN_2022_ID);
  if (mint.supply !== 1n || mint.decimals !== 0) fail(`supply ${mint.supply} with ${mint.decimals} decimals`);
  if (mint.mintAuthority || mint.freezeAuthority) fail('a mint or freeze authority remains');
  const types = getExtensionTypes(mint.tlvData);
  for (const t of [ExtensionType.NonTransferable, ExtensionType.MetadataPointer, ExtensionType.TokenMetadata]) {
    if (!types.includes(t)) fail(`missing extension ${ExtensionType[t]}`);
  }
  const pointer = getMetadataPointerState(mint);
  if (!pointer?.metadataAddress?.equals(p.mint) || (pointer.authority && !pointer.authority.equals(PublicKey.default))) fail('metadata pointer is not fixed to the mint');
  const md = unpackTokenMetadata(getExtensionData(ExtensionType.TokenMetadata, mint.tlvData)!);
  if (!md.mint.equals(p.mint)) fail('metadata names another mint');
  if (md.updateAuthority && !md.updateAuthority.equals(PublicKey.default)) fail('metadata is still updatable');
  const field = (k: string) => md.additionalMetadata.find(([key]) => key === k)?.[1];
  if (field(METADATA_FIELD_SHA256) !== toHex(p.hash)) fail('metadata sha256 differs');
  if (field(METADATA_FIELD_RECORD) !== p.record.toBase58()) fail('metadata record differs');

  const ata = getAssociatedTokenAddressSync(p.mint, p.holder, false, TOKEN_2022_ID, ASSOCIATED_TOKEN_ID);
  const ataAcc = await chain.getAccountInfo(ata);
  if (!ataAcc || ataAcc.owner !== TOKEN_2022_ID.toBase58()) fail("the holder's token account does not exist");
  const token = unpackAccount(ata, asInfo(ataAcc!), TOKEN_2022_ID);
  if (!token.mint.equals(p.mint) || !token.owner.equals(p.holder) || token.amount !== 1n) fail("the holder's token account does not hold the token");

  return {
    mint: p.mint.toBase58(),
    holderTokenAccount: ata.toBase58(),
    name: md.name,
    symbol: md.symbol,
    uri: md.uri,
    sha256: field(METADATA_FIELD_SHA256)!,
    record: field(METADATA_FIELD_RECORD)!,
    supply: mint.supply,
    extensions: types.map((t) => ExtensionType[t]),
  };
}

import type { Connection } from '@solana/web3.js';
import type { ChainService } from '../chain';

export type MintChain = ChainService & { connection?: Connection };

/** A mint transaction on a real cluster must land within ~150 blocks; tell the holder a bit less. */
export const RPC_MINT_TTL_MS = 60_000;
/** The embedded chain keeps a blockhash until a signature would repeat under it; this is the window we promise and enforce. */
export const EMBEDDED_MINT_TTL_MS = 120_000;

export async function freshBlockhash(chain: MintChain): Promise<{ blockhash: string; lastValidBlockHeight: number | null; expiresAt: number }> {
  if (chain.mode === 'rpc' && chain.connection) {
    const r = await chain.connection.getLatestBlockhash('confirmed');
    return { blockhash: r.blockhash, lastValidBlockHeight: r.lastValidBlockHeight, expiresAt: Date.now() + RPC_MINT_TTL_MS };
  }
  return { blockhash: await chain.latestBlockhash(), lastValidBlockHeight: null, expiresAt: Date.now() + EMBEDDED_MINT_TTL_MS };
}

/** True when the transaction can no longer land (so an attempt in flight can be closed). */
export async function blockhashExpired(chain: MintChain, a: { expires_at: number; last_valid_block_height: number | null }): Promise<boolean> {
  if (chain.mode === 'rpc' && chain.connection && a.last_valid_block_height != null) {
    return (await chain.connection.getBlockHeight('confirmed')) > a.last_valid_block_height;
  }
  return Date.now() > a.expires_at;
}

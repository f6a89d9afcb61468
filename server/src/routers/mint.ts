import { z } from 'zod';
import { explorerAddressUrl, explorerClusterFor, explorerTxUrl } from '../../../shared/explorer';
import { certificateId } from '../../../shared/schemas/common';
import type { Context } from '../context';
import { findOwn } from '../db/certificates';
import { fail } from '../lib/errors';
import { MINT_MESSAGES, permanentOrigin, prepareMint, submitMint } from '../services/mint';
import { protectedProcedure, router } from '../trpc';

const idInput = z.object({ id: certificateId });
// A legacy transaction is at most 1232 bytes: 1644 base64 characters.
const submitInput = z.object({ id: certificateId, signedTransaction: z.string().trim().min(1).max(2048) });

/** Explorer links for a mint and its transaction on this server's chain (shown to the user, not stored: the user's origin). */
export function mintLinks(ctx: Pick<Context, 'config' | 'origin'>, mint: string | null, signature: string | null) {
  const cluster = explorerClusterFor({ rpcUrl: ctx.config.chain.mode === 'rpc' ? ctx.config.chain.rpcUrl : null, publicBaseUrl: ctx.origin });
  return {
    explorer_address_url: mint ? explorerAddressUrl(mint, cluster) : null,
    explorer_tx_url: signature ? explorerTxUrl(signature, cluster) : null,
  };
}

export const mintRouter = router({
  /** Builds the mint transaction for the holder's wallet: `{transaction (base64), mint_address, expires_at}`. */
  // What the mint stores forever names ATTESTA_PUBLIC_ORIGIN or the server's listen origin, never ctx.origin (the request's).
  prepare: protectedProcedure
    .input(idInput)
    .mutation(({ ctx, input }) => prepareMint({ ...ctx, permanentOrigin: permanentOrigin(ctx.config, ctx.req) }, ctx.session.user, input.id)),

  /** Submits the wallet-signed transaction: `{mint_address, transaction_signature, arweave_url}` (+ explorer links). */
  submit: protectedProcedure.input(submitInput).mutation(async ({ ctx, input }) => {
    const r = await submitMint(ctx, ctx.session.user, input);
    return { ...r, ...mintLinks(ctx, r.mint_address, r.transaction_signature) };
  }),

  /** Explorer links for a minted certificate of the caller (null links when not minted). */
  links: protectedProcedure.input(idInput).query(async ({ ctx, input }) => {
    // Someone else's id answers like a missing one, as every other own-certificate procedure does.
    const c = (await findOwn(ctx.db, ctx.session.user.id, input.id)) ?? fail('NOT_FOUND', MINT_MESSAGES.notFound);
    return { mint_address: c.nft_mint_address, arweave_url: c.arweave_url, ...mintLinks(ctx, c.nft_mint_address, c.mint_signature) };
  }),
});

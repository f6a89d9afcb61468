import { Keypair, PublicKey } from '@solana/web3.js';
import { CertificateStatus, fromHex, isExpired } from '../../../../shared/program/codec';
import { ownOrNotFound } from '../../db/certificates';
import type { UserRow } from '../../db/schema';
import { fail } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { verificationUrl } from '../certificates/dto';
import { publicVerdictNow } from './valid';
import { preparedTxColumns } from '../wallet-tx';
import { BADGE_CONTENT_TYPE, badgeTier, renderBadgePng } from './badge';
import { fitOnchainName, mintTxSize, nftMetadataJson } from './metadata';
import { mintOriginProblem } from './origin';
import { putOnce, sha256Hex } from './permanent';
import { nowIso, reconcileCertificateMint, settleInFlight, submittedAttempt } from './reconcile';
import { MINT_MESSAGES, mintNotValidMessage, type MintContext, type PreparedMint } from './types';

/**
 * prepare: the server stores the PDF, the badge picture (./badge.ts) and the metadata JSON
 * permanently, builds the one mint transaction (operator = fee payer and temporary authority; fresh
 * mint keypair) as a prepared wallet transaction (services/wallet-tx), records a `mint_attempt` and
 * hands the transaction to the wallet.
 */
export async function prepareMint(ctx: MintContext, user: UserRow, id: string): Promise<PreparedMint> {
  // A real cluster without ATTESTA_PUBLIC_ORIGIN has no origin to make permanent: refused before anything is stored.
  const originProblem = mintOriginProblem(ctx.config);
  if (originProblem) fail('PRECONDITION_FAILED', originProblem);
  const origin = ctx.config.publicOrigin ?? ctx.permanentOrigin;
  const cert = await ownOrNotFound(ctx.db, user.id, id, MINT_MESSAGES.notFound);
  if (cert.nft_mint_address) fail('CONFLICT', MINT_MESSAGES.alreadyMinted);
  if (cert.verification_status !== 'verified') fail('BAD_REQUEST', MINT_MESSAGES.notVerified);
  const hash = fromHex(cert.sha256);
  const record = await ctx.chain.readCertificate(hash);
  if (await reconcileCertificateMint(ctx, cert, record)) fail('CONFLICT', MINT_MESSAGES.alreadyMinted);
  if (!record) return fail('PRECONDITION_FAILED', MINT_MESSAGES.notAnchored);
  if (record.status === CertificateStatus.Revoked) fail('BAD_REQUEST', MINT_MESSAGES.revoked);
  if (record.status !== CertificateStatus.Verified) fail('BAD_REQUEST', MINT_MESSAGES.notVerified);
  if (isExpired(record, await ctx.chain.now())) fail('BAD_REQUEST', MINT_MESSAGES.expired);
  const holder = new PublicKey(user.wallet_address);
  if (!record.holder.equals(holder)) fail('FORBIDDEN', MINT_MESSAGES.otherHolder);
  // The badge is permanent: only for what a verifier reads as valid now (not for an institution the
  // operator suspended, nor claims its confirmation does not cover). Read now, not from a cache.
  const verdict = await publicVerdictNow(ctx, cert, origin);
  if (!verdict.valid) fail('PRECONDITION_FAILED', mintNotValidMessage(verdict, cert));
  if (await settleInFlight(ctx, cert)) fail('CONFLICT', MINT_MESSAGES.alreadyMinted);
  if (await submittedAttempt(ctx, cert.id)) fail('CONFLICT', MINT_MESSAGES.inProgress);

  // Permanent copies first (content-addressed: a retry reuses them).
  const pdf = await ctx.blobs.get(cert.file_key);
  if (!pdf) throw new Error(`certificate ${cert.id}: stored file ${cert.file_key} is missing`);
  if (sha256Hex(pdf) !== cert.sha256) throw new Error(`certificate ${cert.id}: stored file does not match its SHA-256`);
  const store = ctx.permanent.for(origin);
  const tags = { 'Certificate-SHA256': cert.sha256, 'Certificate-Record': cert.record_address };
  const pdfCopy = await putOnce(ctx.db, store, pdf, 'application/pdf', tags);
  // The institution whose own key signed the record (issuer-confirmed tier), by its registered name, its
  // domain and whether that is proven now: the badge says "Issuer confirmed" only when it is.
  const tier = verdict.tier === 'issuer_confirmed' ? 'issuer_confirmed' : cert.tier;
  const issuer = tier === 'issuer_confirmed' && verdict.issuer ? { name: verdict.issuer.name ?? cert.institution_name, domain: verdict.issuer.domain ?? null, domain_proven: verdict.issuer.domain_proven === true } : null;
  const minted = { ...cert, tier };
  // The picture wallets show: the institution and tier only, shared by all its certificates (no certificate tags).
  const badge = await renderBadgePng({ institution: issuer?.name ?? cert.institution_name, tier: badgeTier(tier, issuer), domain: issuer?.domain, verifyHost: new URL(origin).host });
  const imageCopy = await putOnce(ctx.db, store, badge, BADGE_CONTENT_TYPE);
  const metadata = nftMetadataJson({
    cert: minted,
    issuer,
    verifyUrl: verificationUrl(origin, cert.user_id, cert.id),
    pdfUrl: pdfCopy.url,
    imageUrl: imageCopy.url,
    // The chain's day (the embedded chain's clock may be moved by tests); what its domain proof was that day.
    mintedOn: new Date(Number(await ctx.chain.now()) * 1000).toISOString().slice(0, 10),
    expiresAt: verdict.expires_at,
    flags: verdict.flags,
  });
  const metaCopy = await putOnce(ctx.db, store, new TextEncoder().encode(JSON.stringify(metadata)), 'application/json', tags);

  const operator = ctx.chain.operator;
  const programId = ctx.chain.programId;
  // The SPL Token libraries (~0.15 s to load) are loaded at the first mint, not by every server start (#15).
  const { buildSoulboundMintInstructions } = await import('../../../../shared/program/mint');
  const name = fitOnchainName(cert.title, await mintTxSize({ payer: operator, holder, hash, uri: metaCopy.url, programId }));
  if (!name) throw new Error(`${MINT_MESSAGES.uriTooLong} (${metaCopy.url})`);
  const mint = Keypair.generate(); // its secret is dropped after signing: nobody can reuse the address
  const prepared = await ctx.walletTx.prepare(
    'mint_certificate',
    buildSoulboundMintInstructions({ payer: operator, holder, mint: mint.publicKey, hash, title: name, uri: metaCopy.url, programId }),
    holder,
    [mint],
  );
  const now = nowIso();
  await ctx.db
    .insertInto('mint_attempt')
    .values({
      id: newId('m_'),
      certificate_id: cert.id,
      user_id: user.id,
      holder_wallet: prepared.signer,
      mint_address: mint.publicKey.toBase58(),
      ...preparedTxColumns(prepared),
      metadata_url: metaCopy.url,
      pdf_url: pdfCopy.url,
      status: 'prepared',
      error: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { transaction: prepared.transaction, mint_address: mint.publicKey.toBase58(), expires_at: new Date(prepared.expiresAt).toISOString() };
}

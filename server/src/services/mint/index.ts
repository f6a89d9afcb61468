/**
 * Minting verified certificates as soulbound Token-2022 NFTs through the holder's wallet.
 *
 * prepare → the server stores the PDF, the badge picture (./badge.ts) and the metadata JSON
 *   permanently, builds the one mint transaction (operator = fee payer and temporary authority;
 *   fresh mint keypair), signs it with both, records a `mint_attempt` and hands the transaction to
 *   the wallet.
 * submit → the wallet's signed transaction must be byte-for-byte the prepared message with valid
 *   signatures; one attempt per certificate may be in flight (DB guard); the chain runs it; the
 *   mint is read back and recorded.
 * The chain record's `nft_mint` is the source of truth: every entry point reads it first and, when
 * set, only reconciles the DB. `reconcileMints` finishes attempts a crash left in flight.
 */
import { Keypair, Message, PublicKey, Transaction } from '@solana/web3.js';
import { TRPCError } from '@trpc/server';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { CertificateStatus, fromHex, isExpired, type CertificateAccount } from '../../../../shared/program/codec';
import { buildSoulboundMintInstructions } from '../../../../shared/program/mint';
import type { CertificateRow, UserRow } from '../../db/schema';
import { isUniqueViolation } from '../../db/dialect';
import { newId } from '../../lib/ids';
import { ChainError } from '../chain';
import { verificationUrl } from '../certificates/dto';
import type { PermanentStore } from '../permanent';
import type { Services } from '../index';
import { BADGE_CONTENT_TYPE, renderBadgePng } from './badge';
import { blockhashExpired, freshBlockhash, type MintChain } from './chain';
import { fitOnchainName, mintTxSize, nftMetadataJson } from './metadata';
import { readCertificateNft } from './onchain';
import { permanentStoreFor, putOnce, sha256Hex } from './permanent';
import { mintDb, type MintAttemptRow } from './schema';
import { faultPoint } from '../certificates/faults';
import { mintOriginProblem, warnMintOrigin } from './origin';

export { readCertificateNft, InvalidCertificateNftError, type CertificateNft } from './onchain';
export { mintOriginProblem, permanentOrigin, warnMintOrigin } from './origin';
export { shortenName, nftMetadataJson, ONCHAIN_NAME_MAX } from './metadata';
export type { MintAttemptRow, MintAttemptStatus, MintDatabase } from './schema';

export const MINT_MESSAGES = {
  notFound: 'Certificate not found',
  notVerified: 'Only verified certificates can be minted.',
  alreadyMinted: 'This certificate is already minted.',
  inProgress: 'This certificate is already being minted. Please wait a moment and refresh.',
  revoked: 'This certificate has been revoked and cannot be minted.',
  expired: 'This certificate has expired and cannot be minted.',
  notAnchored: 'This certificate is not recorded on chain yet.',
  otherHolder: 'This certificate is recorded for another wallet.',
  unreadable: 'The signed transaction could not be read.',
  mismatch: 'The signed transaction does not match the prepared mint. Please try again.',
  notSigned: 'The transaction is not signed by your wallet.',
  badSignatures: 'The transaction signatures are not valid.',
  requestExpired: 'This mint request has expired. Please try again.',
  requestClosed: 'This mint request is no longer valid. Please try again.',
  uriTooLong: 'The permanent storage URL is too long to fit in a mint transaction.',
} as const;

export type MintServices = Services & { permanent?: PermanentStore & { key?: string; kind?: string } };
export interface MintContext extends MintServices {
  /**
   * The origin written into the NFT (metadata uri, its links, the permanent copy's URL): from
   * `permanentOrigin` (./origin.ts), never a request's Host — those links can never be changed.
   */
  permanentOrigin: string;
}

export interface PreparedMint {
  /** Base64 legacy transaction, signed by the operator and the mint; the holder signs next. */
  transaction: string;
  mint_address: string;
  /** ISO time after which submit refuses it (the blockhash window). */
  expires_at: string;
}

export interface MintResult {
  mint_address: string;
  transaction_signature: string | null;
  arweave_url: string | null;
}

/** Fault injection for tests: a crash after the attempt was claimed and before the send, or after the chain accepted it and before the DB write. */
export interface MintFaults {
  beforeSend?: () => void | Promise<void>;
  afterSend?: () => void | Promise<void>;
}

const fail = (code: TRPCError['code'], message: string): never => {
  throw new TRPCError({ code, message });
};
const nowIso = () => new Date().toISOString();
const resultOf = (c: Pick<CertificateRow, 'nft_mint_address' | 'mint_signature' | 'arweave_url'>): MintResult => ({
  mint_address: c.nft_mint_address!,
  transaction_signature: c.mint_signature,
  arweave_url: c.arweave_url,
});

async function ownCertificate(svc: MintServices, user: UserRow, id: string): Promise<CertificateRow> {
  const row = await svc.db.selectFrom('certificate').selectAll().where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
  return row ?? fail('NOT_FOUND', MINT_MESSAGES.notFound);
}

async function markAttempt(svc: MintServices, id: string, status: MintAttemptRow['status'], error: string | null = null, from?: MintAttemptRow['status'][]) {
  let q = mintDb(svc.db).updateTable('mint_attempt').set({ status, error, updated_at: nowIso() }).where('id', '=', id);
  if (from) q = q.where('status', 'in', from);
  await q.execute();
}

/**
 * Chain first: when the certificate's record already names a mint, make the DB say so (mint
 * address, the attempt's signature and permanent URL) and return it; null when nothing is minted.
 */
export async function reconcileCertificateMint(svc: MintServices, cert: CertificateRow, record?: CertificateAccount | null): Promise<MintResult | null> {
  const hash = fromHex(cert.sha256);
  record = record === undefined ? await svc.chain.readCertificate(hash) : record;
  const mint = record?.nftMint;
  if (!record || !mint) return null;
  const mdb = mintDb(svc.db);
  const mintAddress = mint.toBase58();
  const attempt = await mdb.selectFrom('mint_attempt').selectAll().where('mint_address', '=', mintAddress).executeTakeFirst();
  if (cert.nft_mint_address === mintAddress && (!attempt || attempt.status === 'minted')) return resultOf(cert);

  // The program checked the mint inside the transaction; reading it back proves it to our records.
  await readCertificateNft(svc.chain, { mint, holder: record.holder, hash, record: svc.chain.certificateAddress(hash) });
  const updated = await svc.db.transaction().execute(async (trx) => {
    const t = mintDb(trx);
    const now = nowIso();
    await trx
      .updateTable('certificate')
      .set({
        nft_mint_address: mintAddress,
        // Minted outside our attempts (the holder sent the transaction elsewhere): keep what we know.
        mint_signature: attempt?.signature ?? cert.mint_signature,
        arweave_url: attempt?.pdf_url ?? cert.arweave_url,
        updated_at: now,
      })
      .where('id', '=', cert.id)
      .execute();
    if (attempt) await t.updateTable('mint_attempt').set({ status: 'minted', error: null, updated_at: now }).where('id', '=', attempt.id).execute();
    // Every other open attempt of this certificate can never land now (AlreadyMinted).
    await t
      .updateTable('mint_attempt')
      .set({ status: 'superseded', updated_at: now })
      .where('certificate_id', '=', cert.id)
      .where('mint_address', '!=', mintAddress)
      .where('status', 'in', ['prepared', 'submitted'])
      .execute();
    return trx.selectFrom('certificate').selectAll().where('id', '=', cert.id).executeTakeFirstOrThrow();
  });
  svc.bus.publish({ certificate_id: cert.id, verification_status: updated.verification_status, step: 'mint', step_status: 'success', updated_at: updated.updated_at });
  return resultOf(updated);
}

/**
 * Finishes the attempt of a certificate that is in flight ('submitted'): records it when the chain
 * has the mint, sends the holder's signed bytes again while they can still land (a crash between
 * the DB write and the send), or closes it once its blockhash has expired.
 */
async function settleInFlight(svc: MintServices, cert: CertificateRow): Promise<MintResult | null> {
  const done = await reconcileCertificateMint(svc, cert);
  if (done) return done;
  const a = await mintDb(svc.db).selectFrom('mint_attempt').selectAll().where('certificate_id', '=', cert.id).where('status', '=', 'submitted').executeTakeFirst();
  if (!a) return null;
  if (await blockhashExpired(svc.chain as MintChain, a)) {
    await markAttempt(svc, a.id, 'expired', 'The transaction did not land before its blockhash expired.', ['submitted']);
    return null;
  }
  if (!a.signed_transaction) return null;
  return sendAndRecord(svc, cert, a, Transaction.from(Buffer.from(a.signed_transaction, 'base64')));
}

/** Reconcile-on-start: finishes every mint a crash left between the chain and the DB. */
export async function reconcileMints(svc: MintServices): Promise<{ checked: number; minted: number; closed: number; errors: string[] }> {
  // Runs once at start-up: say now, not at the first holder's mint, that minting needs ATTESTA_PUBLIC_ORIGIN.
  warnMintOrigin(svc.config);
  const mdb = mintDb(svc.db);
  // In-flight attempts, and recently failed ones too: on a real cluster a "failed" send can still
  // have landed (a timeout is not a refusal). Older failures are settled for good.
  const since = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
  const certIds = await mdb
    .selectFrom('mint_attempt')
    .innerJoin('certificate', 'certificate.id', 'mint_attempt.certificate_id')
    .select('mint_attempt.certificate_id')
    .distinct()
    .where('certificate.nft_mint_address', 'is', null)
    .where((eb) => eb.or([eb('mint_attempt.status', '=', 'submitted'), eb.and([eb('mint_attempt.status', '=', 'failed'), eb('mint_attempt.updated_at', '>', since)])]))
    .execute();
  const out = { checked: 0, minted: 0, closed: 0, errors: [] as string[] };
  for (const { certificate_id } of certIds) {
    out.checked++;
    try {
      const cert = await svc.db.selectFrom('certificate').selectAll().where('id', '=', certificate_id).executeTakeFirstOrThrow();
      const r = await settleInFlight(svc, cert);
      if (r) out.minted++;
      else out.closed++;
    } catch (e) {
      out.errors.push(`${certificate_id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

export async function prepareMint(ctx: MintContext, user: UserRow, id: string): Promise<PreparedMint> {
  // A real cluster without ATTESTA_PUBLIC_ORIGIN has no origin to make permanent: refused before anything is stored.
  const originProblem = mintOriginProblem(ctx.config);
  if (originProblem) fail('PRECONDITION_FAILED', originProblem);
  const origin = ctx.config.publicOrigin ?? ctx.permanentOrigin;
  const cert = await ownCertificate(ctx, user, id);
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
  if (await settleInFlight(ctx, cert)) fail('CONFLICT', MINT_MESSAGES.alreadyMinted);
  const inFlight = await mintDb(ctx.db).selectFrom('mint_attempt').select('id').where('certificate_id', '=', cert.id).where('status', '=', 'submitted').executeTakeFirst();
  if (inFlight) fail('CONFLICT', MINT_MESSAGES.inProgress);

  // Permanent copies first (content-addressed: a retry reuses them).
  const pdf = await ctx.blobs.get(cert.file_key);
  if (!pdf) throw new Error(`certificate ${cert.id}: stored file ${cert.file_key} is missing`);
  if (sha256Hex(pdf) !== cert.sha256) throw new Error(`certificate ${cert.id}: stored file does not match its SHA-256`);
  const store = permanentStoreFor(ctx, origin);
  const tags = { 'Certificate-SHA256': cert.sha256, 'Certificate-Record': cert.record_address };
  const pdfCopy = await putOnce(ctx.db, store, pdf, 'application/pdf', tags);
  // The picture wallets show: the institution and tier only, shared by all its certificates (no certificate tags).
  const badge = await renderBadgePng({ institution: cert.institution_name, tier: cert.tier, verifyHost: new URL(origin).host });
  const imageCopy = await putOnce(ctx.db, store, badge, BADGE_CONTENT_TYPE);
  const metadata = nftMetadataJson({ cert, verifyUrl: verificationUrl(origin, cert.user_id, cert.id), pdfUrl: pdfCopy.url, imageUrl: imageCopy.url });
  const metaCopy = await putOnce(ctx.db, store, new TextEncoder().encode(JSON.stringify(metadata)), 'application/json', tags);

  const operator = ctx.chain.operator;
  const programId = ctx.chain.programId;
  const name = fitOnchainName(cert.title, mintTxSize({ payer: operator, holder, hash, uri: metaCopy.url, programId }));
  if (!name) throw new Error(`${MINT_MESSAGES.uriTooLong} (${metaCopy.url})`);
  const mint = Keypair.generate(); // its secret is dropped after signing: nobody can reuse the address
  const { blockhash, lastValidBlockHeight, expiresAt } = await freshBlockhash(ctx.chain as MintChain);
  const tx = new Transaction({ feePayer: operator, blockhash, lastValidBlockHeight: lastValidBlockHeight ?? 0 }).add(
    ...buildSoulboundMintInstructions({ payer: operator, holder, mint: mint.publicKey, hash, title: name, uri: metaCopy.url, programId }),
  );
  tx.partialSign(mint);
  ctx.chain.partialSignAsOperator(tx);
  const message = tx.serializeMessage();
  const now = nowIso();
  await mintDb(ctx.db)
    .insertInto('mint_attempt')
    .values({
      id: newId('m_'),
      certificate_id: cert.id,
      user_id: user.id,
      holder_wallet: holder.toBase58(),
      mint_address: mint.publicKey.toBase58(),
      message: message.toString('base64'),
      message_sha256: sha256Hex(message),
      signature: bs58.encode(tx.signatures[0].signature!),
      signed_transaction: null,
      blockhash,
      last_valid_block_height: lastValidBlockHeight,
      expires_at: expiresAt,
      metadata_url: metaCopy.url,
      pdf_url: pdfCopy.url,
      status: 'prepared',
      error: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return {
    transaction: tx.serialize({ requireAllSignatures: false, verifySignatures: true }).toString('base64'),
    mint_address: mint.publicKey.toBase58(),
    expires_at: new Date(expiresAt).toISOString(),
  };
}

/** Splits a wire transaction into its signatures and the exact message bytes they sign. */
function splitWire(bytes: Uint8Array): { signatures: Uint8Array[]; message: Uint8Array } {
  let n = 0;
  let i = 0;
  for (let shift = 0; ; shift += 7) {
    if (i >= bytes.length || i > 2) throw new Error('bad signature count');
    const b = bytes[i++];
    n |= (b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  if (bytes.length < i + 64 * n + 1) throw new Error('truncated');
  const signatures = Array.from({ length: n }, (_, k) => bytes.subarray(i + 64 * k, i + 64 * (k + 1)));
  return { signatures, message: bytes.subarray(i + 64 * n) };
}

/**
 * Waits for another request's submission of this certificate to finish. A claim older than the
 * time a send can take was left by a crash: stop waiting at once (the caller finishes it).
 */
async function awaitOther(svc: MintServices, certId: string): Promise<MintResult | null> {
  const sendMs = svc.chain.mode === 'rpc' ? 45_000 : 5_000;
  for (;;) {
    const c = await svc.db.selectFrom('certificate').selectAll().where('id', '=', certId).executeTakeFirstOrThrow();
    if (c.nft_mint_address) return resultOf(c);
    const busy = await mintDb(svc.db).selectFrom('mint_attempt').select('updated_at').where('certificate_id', '=', certId).where('status', '=', 'submitted').executeTakeFirst();
    if (!busy || Date.now() - Date.parse(busy.updated_at) > sendMs) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function submitMint(ctx: MintServices, user: UserRow, input: { id: string; signedTransaction: string }, faults: MintFaults = {}): Promise<MintResult> {
  const cert = await ownCertificate(ctx, user, input.id);
  const settled = await reconcileCertificateMint(ctx, cert);
  if (settled) return settled;
  if (cert.verification_status !== 'verified') fail('BAD_REQUEST', MINT_MESSAGES.notVerified);

  // 1. Exactly the prepared message, with every signature valid.
  let wire: Uint8Array;
  let parts: ReturnType<typeof splitWire>;
  let tx: Transaction;
  let message: Message;
  try {
    wire = new Uint8Array(Buffer.from(input.signedTransaction, 'base64'));
    parts = splitWire(wire);
    message = Message.from(Buffer.from(parts.message));
    tx = Transaction.from(wire);
    // Whatever we send must be these very bytes.
    if (!Buffer.from(tx.serialize({ requireAllSignatures: false, verifySignatures: false })).equals(Buffer.from(wire))) throw new Error('not canonical');
  } catch {
    return fail('BAD_REQUEST', MINT_MESSAGES.unreadable);
  }
  const mdb = mintDb(ctx.db);
  const attempt = await mdb
    .selectFrom('mint_attempt')
    .selectAll()
    .where('certificate_id', '=', cert.id)
    .where('message_sha256', '=', sha256Hex(parts.message))
    .executeTakeFirst();
  if (!attempt || !Buffer.from(attempt.message, 'base64').equals(Buffer.from(parts.message))) return fail('BAD_REQUEST', MINT_MESSAGES.mismatch);
  if (attempt.status === 'minted') return resultOf((await ctx.db.selectFrom('certificate').selectAll().where('id', '=', cert.id).executeTakeFirstOrThrow()) as CertificateRow);
  // Already sent by another request (or left in flight by a crash): wait for it, then finish it.
  if (attempt.status === 'submitted') return (await awaitOther(ctx, cert.id)) ?? (await settleInFlight(ctx, cert)) ?? fail('CONFLICT', MINT_MESSAGES.inProgress);
  if (attempt.status !== 'prepared') fail('BAD_REQUEST', attempt.status === 'expired' ? MINT_MESSAGES.requestExpired : MINT_MESSAGES.requestClosed);

  const signers = message.accountKeys.slice(0, message.header.numRequiredSignatures);
  if (parts.signatures.length !== signers.length) fail('BAD_REQUEST', MINT_MESSAGES.badSignatures);
  const holderIndex = signers.findIndex((k) => k.toBase58() === user.wallet_address);
  if (holderIndex < 0 || attempt.holder_wallet !== user.wallet_address) fail('BAD_REQUEST', MINT_MESSAGES.notSigned);
  const signed = (k: number) => parts.signatures[k].some((b) => b !== 0) && nacl.sign.detached.verify(parts.message, parts.signatures[k], signers[k].toBytes());
  if (!signed(holderIndex)) fail('BAD_REQUEST', MINT_MESSAGES.notSigned);
  if (!signers.every((_, k) => signed(k))) fail('BAD_REQUEST', MINT_MESSAGES.badSignatures);

  if (Date.now() > attempt.expires_at) {
    await markAttempt(ctx, attempt.id, 'expired', null, ['prepared']);
    fail('BAD_REQUEST', MINT_MESSAGES.requestExpired);
  }

  // 2. One submission per certificate at a time: compare-and-set, guarded by a partial unique index.
  let claimed = false;
  try {
    const r = await mdb
      .updateTable('mint_attempt')
      .set({ status: 'submitted', signed_transaction: input.signedTransaction, updated_at: nowIso() })
      .where('id', '=', attempt.id)
      .where('status', '=', 'prepared')
      .executeTakeFirst();
    claimed = Number(r.numUpdatedRows) === 1;
  } catch (e) {
    if (!isUniqueViolation(e, 'mint_attempt')) throw e;
  }
  if (!claimed) return (await awaitOther(ctx, cert.id)) ?? (await reconcileCertificateMint(ctx, cert)) ?? fail('CONFLICT', MINT_MESSAGES.inProgress);

  return sendAndRecord(ctx, cert, { ...attempt, status: 'submitted' }, tx, faults);
}

/** Sends a claimed ('submitted') attempt's signed transaction and records the outcome. */
async function sendAndRecord(svc: MintServices, cert: CertificateRow, attempt: MintAttemptRow, tx: Transaction, faults: MintFaults = {}): Promise<MintResult> {
  faultPoint('mint-before-send');
  await faults.beforeSend?.();
  try {
    await svc.chain.sendSignedTransaction(tx, { kind: 'mint_certificate', certificateId: cert.id });
  } catch (e) {
    if (!(e instanceof ChainError)) throw e; // outcome unknown: stays 'submitted' for reconcileMints
    // Refused. If another attempt minted meanwhile (AlreadyMinted), that mint is the answer.
    const other = await reconcileCertificateMint(svc, cert);
    if (other) return other;
    await markAttempt(svc, attempt.id, 'failed', e.message, ['submitted']);
    const reason = e.errorName === 'NotVerified' ? MINT_MESSAGES.notVerified : e.errorName === 'CertificateExpired' ? MINT_MESSAGES.expired : `The chain refused the mint: ${e.message}`;
    fail('BAD_REQUEST', reason);
  }
  faultPoint('mint-after-send');
  await faults.afterSend?.();
  const result = await reconcileCertificateMint(svc, cert);
  if (!result) throw new Error(`certificate ${cert.id}: the mint transaction succeeded but the record names no mint`);
  return result;
}

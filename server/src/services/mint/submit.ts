import { getCertificate, ownOrNotFound } from '../../db/certificates';
import { isUniqueViolation } from '../../db/dialect';
import type { UserRow } from '../../db/schema';
import { fail } from '../../lib/errors';
import { markAttempt, nowIso, reconcileCertificateMint, resultOf, sendAndRecord, settleInFlight } from './reconcile';
import { MINT_MESSAGES, mintNotValidMessage, type MintFaults, type MintResult, type MintServices } from './types';
import { publicVerdictNow } from './valid';

/**
 * Waits for another request's submission of this certificate to finish. A claim older than the
 * time a send can take was left by a crash: stop waiting at once (the caller finishes it).
 */
async function awaitOther(svc: MintServices, certId: string): Promise<MintResult | null> {
  const sendMs = svc.chain.mode === 'rpc' ? 45_000 : 5_000;
  for (;;) {
    const c = await getCertificate(svc.db, certId);
    if (c.nft_mint_address) return resultOf(c);
    const busy = await svc.db.selectFrom('mint_attempt').select('updated_at').where('certificate_id', '=', certId).where('status', '=', 'submitted').executeTakeFirst();
    if (!busy || Date.now() - Date.parse(busy.updated_at) > sendMs) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * submit: the wallet's signed transaction must be byte-for-byte the prepared message with valid
 * signatures (services/wallet-tx); one attempt per certificate may be in flight (DB guard); the
 * chain runs it; the mint is read back and recorded.
 */
export async function submitMint(ctx: MintServices, user: UserRow, input: { id: string; signedTransaction: string }, faults: MintFaults = {}): Promise<MintResult> {
  const cert = await ownOrNotFound(ctx.db, user.id, input.id, MINT_MESSAGES.notFound);
  const settled = await reconcileCertificateMint(ctx, cert);
  if (settled) return settled;
  if (cert.verification_status !== 'verified') fail('BAD_REQUEST', MINT_MESSAGES.notVerified);

  // 1. Exactly the prepared message, with every signature valid.
  const signed = ctx.walletTx.read(input.signedTransaction) ?? fail('BAD_REQUEST', MINT_MESSAGES.unreadable);
  const attempt = await ctx.db
    .selectFrom('mint_attempt')
    .selectAll()
    .where('certificate_id', '=', cert.id)
    .where('message_sha256', '=', signed.messageSha256)
    .executeTakeFirst();
  if (!attempt || !ctx.walletTx.isPrepared(signed, attempt.message)) return fail('BAD_REQUEST', MINT_MESSAGES.mismatch);
  if (attempt.status === 'minted') return resultOf(await getCertificate(ctx.db, cert.id));
  // Already sent by another request (or left in flight by a crash): wait for it, then finish it.
  if (attempt.status === 'submitted') return (await awaitOther(ctx, cert.id)) ?? (await settleInFlight(ctx, cert)) ?? fail('CONFLICT', MINT_MESSAGES.inProgress);
  if (attempt.status !== 'prepared') fail('BAD_REQUEST', attempt.status === 'expired' ? MINT_MESSAGES.requestExpired : MINT_MESSAGES.requestClosed);

  const problem = ctx.walletTx.signatureProblem(signed, attempt.holder_wallet === user.wallet_address ? user.wallet_address : null);
  if (problem) fail('BAD_REQUEST', problem === 'not_signed' ? MINT_MESSAGES.notSigned : MINT_MESSAGES.badSignatures);

  if (Date.now() > attempt.expires_at) {
    await markAttempt(ctx, attempt.id, 'expired', null, ['prepared']);
    fail('BAD_REQUEST', MINT_MESSAGES.requestExpired);
  }
  // Still valid now: the operator may have suspended the institution since the prepare. What the
  // program checks itself (the record revoked, expired, not verified) it refuses on its own.
  const verdict = await publicVerdictNow(ctx, cert, '');
  if (!verdict.valid && verdict.status === 'verified') fail('PRECONDITION_FAILED', mintNotValidMessage(verdict, cert));

  // 2. One submission per certificate at a time: compare-and-set, guarded by a partial unique index.
  let claimed = false;
  try {
    const r = await ctx.db
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

  return sendAndRecord(ctx, cert, { ...attempt, status: 'submitted' }, signed.tx, faults);
}

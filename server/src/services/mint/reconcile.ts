import { Transaction } from '@solana/web3.js';
import { fromHex, type CertificateAccount } from '../../../../shared/program/codec';
import { getCertificate, updateCertificate } from '../../db/certificates';
import type { CertificateRow, MintAttemptRow } from '../../db/schema';
import { fail } from '../../lib/errors';
import { ChainError } from '../chain';
import { warnMintOrigin } from './origin';
import { MINT_MESSAGES, type MintFaults, type MintResult, type MintServices } from './types';

// The chain record's `nft_mint` is the source of truth: every entry point reads it first and, when
// set, only reconciles the DB. A mint in flight is finished from the chain after a crash.

export const nowIso = () => new Date().toISOString();

export const resultOf = (c: Pick<CertificateRow, 'nft_mint_address' | 'mint_signature' | 'arweave_url'>): MintResult => ({
  mint_address: c.nft_mint_address!,
  transaction_signature: c.mint_signature,
  arweave_url: c.arweave_url,
});

export async function markAttempt(svc: MintServices, id: string, status: MintAttemptRow['status'], error: string | null = null, from?: MintAttemptRow['status'][]) {
  let q = svc.db.updateTable('mint_attempt').set({ status, error, updated_at: nowIso() }).where('id', '=', id);
  if (from) q = q.where('status', 'in', from);
  await q.execute();
}

/** The attempt of a certificate that is being sent ('submitted'), if any. */
export const submittedAttempt = (svc: MintServices, certificateId: string) =>
  svc.db.selectFrom('mint_attempt').selectAll().where('certificate_id', '=', certificateId).where('status', '=', 'submitted').executeTakeFirst();

/**
 * Chain first: when the certificate's record already names a mint, make the DB say so (mint
 * address, the attempt's signature and permanent URL) and return it; null when nothing is minted.
 */
export async function reconcileCertificateMint(svc: MintServices, cert: CertificateRow, record?: CertificateAccount | null): Promise<MintResult | null> {
  const hash = fromHex(cert.sha256);
  record = record === undefined ? await svc.chain.readCertificate(hash) : record;
  const mint = record?.nftMint;
  if (!record || !mint) return null;
  const mintAddress = mint.toBase58();
  const attempt = await svc.db.selectFrom('mint_attempt').selectAll().where('mint_address', '=', mintAddress).executeTakeFirst();
  if (cert.nft_mint_address === mintAddress && (!attempt || attempt.status === 'minted')) return resultOf(cert);

  // The program checked the mint inside the transaction; reading it back proves it to our records.
  const { readCertificateNft } = await import('./onchain'); // the SPL Token libraries: loaded when first needed
  await readCertificateNft(svc.chain, { mint, holder: record.holder, hash, record: svc.chain.certificateAddress(hash) });
  const updated = await svc.db.transaction().execute(async (trx) => {
    const now = nowIso();
    await updateCertificate(trx, cert.id, {
      nft_mint_address: mintAddress,
      // Minted outside our attempts (the holder sent the transaction elsewhere): keep what we know.
      mint_signature: attempt?.signature ?? cert.mint_signature,
      arweave_url: attempt?.pdf_url ?? cert.arweave_url,
      updated_at: now,
    });
    if (attempt) await trx.updateTable('mint_attempt').set({ status: 'minted', error: null, updated_at: now }).where('id', '=', attempt.id).execute();
    // Every other open attempt of this certificate can never land now (AlreadyMinted).
    await trx
      .updateTable('mint_attempt')
      .set({ status: 'superseded', updated_at: now })
      .where('certificate_id', '=', cert.id)
      .where('mint_address', '!=', mintAddress)
      .where('status', 'in', ['prepared', 'submitted'])
      .execute();
    return getCertificate(trx, cert.id);
  });
  svc.bus.publish({ certificate_id: cert.id, verification_status: updated.verification_status, step: 'mint', step_status: 'success', updated_at: updated.updated_at });
  return resultOf(updated);
}

/**
 * Finishes the attempt of a certificate that is in flight ('submitted'): records it when the chain
 * has the mint, sends the holder's signed bytes again while they can still land (a crash between
 * the DB write and the send), or closes it once its blockhash has expired.
 */
export async function settleInFlight(svc: MintServices, cert: CertificateRow): Promise<MintResult | null> {
  const done = await reconcileCertificateMint(svc, cert);
  if (done) return done;
  const a = await submittedAttempt(svc, cert.id);
  if (!a) return null;
  if (await svc.walletTx.expired({ expiresAt: a.expires_at, lastValidBlockHeight: a.last_valid_block_height })) {
    await markAttempt(svc, a.id, 'expired', 'The transaction did not land before its blockhash expired.', ['submitted']);
    return null;
  }
  if (!a.signed_transaction) return null;
  return sendAndRecord(svc, cert, a, Transaction.from(Buffer.from(a.signed_transaction, 'base64')));
}

/** Sends a claimed ('submitted') attempt's signed transaction and records the outcome. */
export async function sendAndRecord(svc: MintServices, cert: CertificateRow, attempt: MintAttemptRow, tx: Transaction, faults: MintFaults = {}): Promise<MintResult> {
  svc.faults.hit('mint-before-send');
  await faults.beforeSend?.();
  try {
    await svc.walletTx.send(tx, { kind: 'mint_certificate', certificateId: cert.id });
  } catch (e) {
    if (!(e instanceof ChainError)) throw e; // outcome unknown: stays 'submitted' for reconcileMints
    // Refused. If another attempt minted meanwhile (AlreadyMinted), that mint is the answer.
    const other = await reconcileCertificateMint(svc, cert);
    if (other) return other;
    await markAttempt(svc, attempt.id, 'failed', e.message, ['submitted']);
    const reason = e.errorName === 'NotVerified' ? MINT_MESSAGES.notVerified : e.errorName === 'CertificateExpired' ? MINT_MESSAGES.expired : `The chain refused the mint: ${e.message}`;
    fail('BAD_REQUEST', reason);
  }
  svc.faults.hit('mint-after-send');
  await faults.afterSend?.();
  const result = await reconcileCertificateMint(svc, cert);
  if (!result) throw new Error(`certificate ${cert.id}: the mint transaction succeeded but the record names no mint`);
  return result;
}

/** Reconcile-on-start: finishes every mint a crash left between the chain and the DB. */
export async function reconcileMints(svc: MintServices): Promise<{ checked: number; minted: number; closed: number; errors: string[] }> {
  // Runs once at start-up: say now, not at the first holder's mint, that minting needs ATTESTA_PUBLIC_ORIGIN.
  warnMintOrigin(svc.config);
  // In-flight attempts, and recently failed ones too: on a real cluster a "failed" send can still
  // have landed (a timeout is not a refusal). Older failures are settled for good.
  const since = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
  const certIds = await svc.db
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
      const r = await settleInFlight(svc, await getCertificate(svc.db, certificate_id));
      if (r) out.minted++;
      else out.closed++;
    } catch (e) {
      out.errors.push(`${certificate_id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

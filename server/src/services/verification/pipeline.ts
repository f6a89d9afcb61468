import { PublicKey } from '@solana/web3.js';
import { CertificateStatus, IssuerStatus, TrustTier, fromHex } from '../../../../shared/program/codec';
import { ReasonCode, reasonName } from '../../../../shared/program/reasons';
import type { TrustTierName } from '../../../../shared/constants';
import type { CertificateRow, VerificationJobRow } from '../../db/schema';
import { newId } from '../../lib/ids';
import { checkDocument, DocumentUnreadableError, normaliseText } from '../documents/index.js';
import { sha256Hex } from '../files/index.js';
import type { Services } from '../index';
import { chainChange } from '../chain-sync/reconcile';
import { mismatchReason } from './claims';

type StepStatus = 'success' | 'pending' | 'failed';
interface StepResult {
  status: StepStatus;
  message: string;
  /** Set when the step decides the verdict: rejection reason. */
  reasonCode?: number;
  [k: string]: unknown;
}

const TIER_NAMES: Record<number, TrustTierName> = { [TrustTier.None]: 'none', [TrustTier.PlatformVerified]: 'platform_verified', [TrustTier.IssuerConfirmed]: 'issuer_confirmed' };

const parseDetails = (text: string | null): Record<string, unknown> | null => {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs one verification job. Every step is idempotent: its log entry is keyed by (job, step), so a
 * re-run after a crash reuses the recorded outcome instead of writing a second entry, and the
 * chain verdict is read before it is written.
 */
export async function runVerificationJob(svc: Services, job: VerificationJobRow): Promise<void> {
  const { db, chain, bus, config } = svc;
  const cert = await db.selectFrom('certificate').selectAll().where('id', '=', job.certificate_id).executeTakeFirst();
  if (!cert) {
    await db.updateTable('verification_job').set({ status: 'done', updated_at: new Date().toISOString() }).where('id', '=', job.id).execute();
    return;
  }
  const hash = fromHex(cert.sha256);
  // A new run after the last attempt gave up: the "could not be completed" notice no longer holds.
  if (cert.verification_status === 'pending' && (parseDetails(cert.verification_details)?.retry as { state?: string } | undefined)?.state === 'gave_up') {
    await db.updateTable('certificate').set({ verification_details: null, updated_at: new Date().toISOString() }).where('id', '=', cert.id).execute();
  }

  const step = async (name: string, fn: () => Promise<StepResult>): Promise<StepResult> => {
    const done = await db.selectFrom('verification_log').select('details').where('job_id', '=', job.id).where('verification_step', '=', name).executeTakeFirst();
    if (done) return JSON.parse(done.details) as StepResult;
    if (config.testStepDelayMs) await sleep(config.testStepDelayMs);
    const result = await fn();
    const now = new Date().toISOString();
    await db
      .insertInto('verification_log')
      .values({ id: newId('l_'), certificate_id: cert.id, job_id: job.id, verification_step: name, status: result.status, details: JSON.stringify(result), created_at: now })
      .onConflict((c) => c.columns(['job_id', 'verification_step']).doNothing())
      .execute();
    await svc.queue.heartbeat(job.id);
    bus.publish({ certificate_id: cert.id, verification_status: cert.verification_status, step: name, step_status: result.status, updated_at: now });
    return result;
  };

  const results: Record<string, StepResult> = {};
  let failed: StepResult | null = null;

  results.hash_verification = await step('hash_verification', () => hashStep(svc, cert, hash));
  if (results.hash_verification.status === 'failed') failed = results.hash_verification;

  if (!failed) {
    results.document_checks = await step('document_checks', () => documentStep(svc, cert));
    if (results.document_checks.status === 'failed') failed = results.document_checks;
  }
  // Content not checked: nothing for the issuer step to add; the certificate waits (below).
  if (!failed && results.document_checks?.status !== 'pending') {
    results.issuer_verification = await step('issuer_verification', () => issuerStep(svc, cert, hash));
    if (results.issuer_verification.status === 'failed') failed = results.issuer_verification;
  }

  const record = await chain.readCertificate(hash);
  // Someone else's word already decided this record (revoked, superseded by the rightful holder's
  // issuance, confirmed by the institution): the row follows the chain, no platform verdict is sent.
  const decided = await chainChange(svc, cert, record);
  if (decided) {
    await finishWithoutVerdict(svc, cert, job, decided.verification_status, decided.tier, decided.verification_details);
    return;
  }

  // Content nobody could read is never recorded as verified: the record stays pending on chain and
  // the holder sees why, until the institution confirms it or the holder uploads a readable file.
  if (!failed && results.document_checks?.status === 'pending') {
    await finishWithoutVerdict(svc, cert, job, 'pending', 'none', {
      state: 'awaiting_confirmation',
      reason: `${results.document_checks.message} A certificate whose content could not be checked is not marked verified: it stays pending until the institution that issued it confirms it on chain, or you add a PDF of it with selectable text.`,
      reason_code: ReasonCode.None,
      reason_name: 'none',
      tier: 'none',
      content_checked: false,
      step: 'document_checks',
    });
    return;
  }

  const verified = !failed;
  const reasonCode = failed ? (failed.reasonCode ?? ReasonCode.Other) : ReasonCode.None;
  if (config.testStepDelayMs) await sleep(config.testStepDelayMs);

  // Record the verdict on chain, unless this run already did (crash after the transaction).
  const jobStartedAt = BigInt(Math.floor(Date.parse(job.created_at) / 1000));
  const alreadyRecorded =
    record &&
    ((verified && record.status === CertificateStatus.Verified) ||
      (!verified && record.status === CertificateStatus.Rejected && record.reasonCode === reasonCode && record.verifiedAt >= jobStartedAt));

  await db.transaction().execute(async (trx) => {
    let signature: string | null = null;
    let undo: (() => void) | undefined;
    try {
      if (record && !alreadyRecorded && record.status !== CertificateStatus.Revoked) {
        const receipt = await chain.recordVerification(
          { hash, verified, reasonCode },
          { db: trx, kind: 'record_verification', certificateId: cert.id },
        );
        signature = receipt.signature;
        undo = receipt.undo;
      } else if (alreadyRecorded) {
        const tx = await trx
          .selectFrom('chain_transaction')
          .select('signature')
          .where('certificate_id', '=', cert.id)
          .where('kind', '=', 'record_verification')
          .orderBy('slot', 'desc')
          .executeTakeFirst();
        signature = tx?.signature ?? null;
      }
      const after = await chain.readCertificate(hash);
      const tier = verified ? TIER_NAMES[after?.tier ?? TrustTier.None] : 'none';
      const now = new Date().toISOString();
      const issuerInfo = (results.issuer_verification?.issuer as { authority: string; name: string } | undefined) ?? null;
      const detailsObj = verified
        ? {
            reason: results.issuer_verification?.message ?? 'Verified',
            reason_code: 0,
            reason_name: 'none',
            tier,
            issuer: issuerInfo,
            content_checked: true,
            tamper_signals: results.document_checks?.tamper_signals ?? [],
            signature,
          }
        : { reason: failed!.message, reason_code: reasonCode, reason_name: reasonName(reasonCode), tier: 'none', step: Object.keys(results).at(-1), signature };
      await trx
        .insertInto('verification_log')
        .values({
          id: newId('l_'),
          certificate_id: cert.id,
          job_id: job.id,
          verification_step: 'chain_record',
          status: signature || !record ? (record ? 'success' : 'failed') : 'success',
          details: JSON.stringify({ message: record ? `Verdict ${verified ? 'verified' : 'rejected'} recorded on chain` : 'No on-chain record to update', signature }),
          created_at: now,
        })
        .onConflict((c) => c.columns(['job_id', 'verification_step']).doNothing())
        .execute();
      await trx
        .updateTable('certificate')
        .set({ verification_status: verified ? 'verified' : 'rejected', verification_details: JSON.stringify(detailsObj), tier, verify_signature: signature, updated_at: now })
        .where('id', '=', cert.id)
        .execute();
      await trx.updateTable('verification_job').set({ status: 'done', locked_until: null, last_error: null, updated_at: now }).where('id', '=', job.id).execute();
    } catch (e) {
      undo?.();
      throw e;
    }
  });
  bus.publish({ certificate_id: cert.id, verification_status: verified ? 'verified' : 'rejected', step: null, step_status: null, updated_at: new Date().toISOString() });
}

async function hashStep(svc: Services, cert: CertificateRow, hash: Uint8Array): Promise<StepResult> {
  const bytes = await svc.blobs.get(cert.file_key);
  if (!bytes) return { status: 'failed', message: 'The stored certificate file is missing.', reasonCode: ReasonCode.HashMismatch };
  const actual = sha256Hex(bytes);
  if (actual !== cert.sha256) {
    return { status: 'failed', message: 'The stored file does not match the hash recorded on chain.', reasonCode: ReasonCode.HashMismatch, expected_sha256: cert.sha256, actual_sha256: actual };
  }
  const record = await svc.chain.readCertificate(hash);
  if (!record) return { status: 'failed', message: 'No on-chain record exists for this file.', reasonCode: ReasonCode.HashMismatch };
  if (record.holder.toBase58() !== cert.holder_wallet) {
    return { status: 'failed', message: 'The on-chain record belongs to another wallet.', reasonCode: ReasonCode.HashMismatch };
  }
  return { status: 'success', message: 'The file matches the SHA-256 recorded on chain for this holder.', sha256: actual };
}

async function documentStep(svc: Services, cert: CertificateRow): Promise<StepResult> {
  const bytes = await svc.blobs.get(cert.file_key);
  if (!bytes) return { status: 'failed', message: 'The stored certificate file is missing.', reasonCode: ReasonCode.UnreadableDocument };
  try {
    const r = await checkDocument(bytes, { title: cert.title, institution_name: cert.institution_name, program_name: cert.program_name });
    const missing = [
      !r.textMatches.title && 'title',
      !r.textMatches.institution && 'institution',
      !r.textMatches.program && 'program',
    ].filter(Boolean) as string[];
    const base = { page_count: r.pageCount, producer: r.producer ?? null, tamper_signals: r.tamperSignals, text_matches: r.textMatches, text_source: r.textSource, ocr_confidence: r.ocrConfidence ?? null, ocr_ms: r.ocrMs ?? null };
    if (!r.text.trim()) {
      // No text layer and OCR read too little (or timed out): the content cannot be confirmed,
      // which is shown as "pending" instead of rejecting every photo.
      return {
        status: 'pending',
        message: 'This document has no readable text (a scanned or photographed certificate), so its title, institution and program could not be checked automatically.',
        content_checked: false,
        ...(r.ocrNote ? { ocr_note: r.ocrNote } : {}),
        ...base,
      };
    }
    if (missing.length) {
      // Says what the document names instead (the text closest to each claim), so a typo reads as one.
      const claimOf = { title: cert.title, institution: cert.institution_name, program: cert.program_name } as const;
      const { message, closest } = mismatchReason(r.text, (missing as (keyof typeof claimOf)[]).map((field) => ({ field, claim: claimOf[field] })), r.textSource === 'ocr');
      return { status: 'failed', message, reasonCode: ReasonCode.ContentMismatch, missing, closest, ...base };
    }
    // Tamper signals are flagged for people to see; on their own they do not reject (see notes).
    return {
      status: 'success',
      message: r.tamperSignals.length
        ? `The document names the claimed title, institution and program. Flagged: ${r.tamperSignals.join(' ')}`
        : 'The document names the claimed title, institution and program.',
      ...base,
    };
  } catch (e) {
    if (e instanceof DocumentUnreadableError) return { status: 'failed', message: e.message, reasonCode: ReasonCode.UnreadableDocument };
    throw e;
  }
}

async function issuerStep(svc: Services, cert: CertificateRow, hash: Uint8Array): Promise<StepResult> {
  const record = await svc.chain.readCertificate(hash);
  // `issuer` names the institution that confirmed the record only at the issuer-confirmed tier;
  // below it, the institution the holder asked (a request is not a confirmation).
  if (record?.issuer && record.tier === TrustTier.IssuerConfirmed) {
    const issuer = await svc.chain.readIssuer(record.issuer);
    if (!issuer || issuer.status !== IssuerStatus.Approved) {
      return { status: 'failed', message: 'The issuer named on chain is not approved.', reasonCode: ReasonCode.IssuerNotApproved, issuer: { authority: record.issuer.toBase58(), name: issuer?.name ?? null } };
    }
    return {
      status: 'success',
      message: `Issued and confirmed on chain by the approved issuer ${issuer.name}.`,
      tier: 'issuer_confirmed',
      issuer: { authority: record.issuer.toBase58(), name: issuer.name },
    };
  }
  const wanted = normaliseText(cert.institution_name);
  const match = (await svc.chain.listIssuers()).find((i) => i.status === IssuerStatus.Approved && normaliseText(i.name) === wanted);
  if (match) {
    return {
      status: 'success',
      message: `${match.name} is an approved on-chain issuer but has not confirmed this certificate; verified by the platform.`,
      tier: 'platform_verified',
      issuer: { authority: new PublicKey(match.authority).toBase58(), name: match.name },
    };
  }
  return {
    status: 'success',
    message: `${cert.institution_name} is not a registered issuer; the certificate is verified by the platform.`,
    tier: 'platform_verified',
    issuer: null,
  };
}

/** Ends a job without sending a verdict: the row takes `status` and `details`; the job is done. */
async function finishWithoutVerdict(svc: Services, cert: CertificateRow, job: VerificationJobRow, status: CertificateRow['verification_status'], tier: string, details: Record<string, unknown>) {
  const now = new Date().toISOString();
  await svc.db.transaction().execute(async (trx) => {
    await trx.updateTable('certificate').set({ verification_status: status, tier, verification_details: JSON.stringify(details), updated_at: now }).where('id', '=', cert.id).execute();
    await trx.updateTable('verification_job').set({ status: 'done', locked_until: null, last_error: null, updated_at: now }).where('id', '=', job.id).execute();
  });
  svc.bus.publish({ certificate_id: cert.id, verification_status: status, step: null, step_status: null, updated_at: now });
}

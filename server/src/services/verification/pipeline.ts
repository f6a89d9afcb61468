import { CertificateStatus, TrustTier, fromHex, type CertificateAccount } from '../../../../shared/program/codec';
import { trustTierName } from '../../../../shared/program/names';
import { ReasonCode, reasonName } from '../../../../shared/program/reasons';
import { parseVerificationDetails, type AwaitingConfirmationDetails, type VerdictDetails } from '../../../../shared/schemas/details';
import { findCertificate, sameClaims, updateCertificate } from '../../db/certificates';
import type { Kysely } from 'kysely';
import type { CertificateRow, CertificateUpdate, Database, VerificationJobRow } from '../../db/schema';
import { newId } from '../../lib/ids';
import { ChainError } from '../chain';
import { afterChainChange, chainChange, chainDecision, rowUpdateOf } from '../chain-sync/reconcile';
import type { Services } from '../index';
import { CHECK_ORDER, CHECKS, type CheckStep, type JobFacts, type StepResult, type StepResults } from './steps';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `load` on first call and hands every later caller the same promise. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => (p ??= load());
}

/**
 * Runs one verification job: the checks of ./steps.ts in VERIFICATION_STEPS order, then the verdict
 * (`chain_record`). Every step is idempotent: its log entry is keyed by (job, step), so a re-run
 * after a crash reuses the recorded outcome instead of writing a second entry, and the chain verdict
 * is read before it is written. The stored file and the chain record are read once for the checks;
 * the record is read again when the verdict is decided (others may have changed it meanwhile).
 */
export async function runVerificationJob(svc: Services, job: VerificationJobRow): Promise<void> {
  const { db, chain, bus, config } = svc;
  const cert = await findCertificate(db, job.certificate_id);
  if (!cert) {
    await db.updateTable('verification_job').set({ status: 'done', updated_at: new Date().toISOString() }).where('id', '=', job.id).execute();
    return;
  }
  // A certificate the chain already finished with (revoked, superseded) is not checked again: the run
  // ends with the record's state (a run queued before the revocation, or by a client that raced it).
  if (cert.verification_status === 'revoked' || cert.verification_status === 'superseded') return settle(svc, job, cert, null);
  const hash = fromHex(cert.sha256);
  // A new run after the last attempt gave up: the "could not be completed" notice no longer holds.
  const previous = parseVerificationDetails(cert.verification_details);
  if (cert.verification_status === 'pending' && previous?.kind === 'retry' && previous.retry?.state === 'gave_up') {
    await updateCertificate(db, cert.id, { verification_details: null, updated_at: new Date().toISOString() });
  }

  const facts: JobFacts = {
    svc,
    cert,
    hash,
    file: once(() => svc.blobs.get(cert.file_key)),
    record: once(() => chain.readCertificate(hash)),
    holderName: once(async () => (await db.selectFrom('user').select('full_name').where('id', '=', cert.user_id).executeTakeFirst())?.full_name ?? ''),
  };

  const step = async (name: CheckStep): Promise<StepResult> => {
    const done = await db.selectFrom('verification_log').select('details').where('job_id', '=', job.id).where('verification_step', '=', name).executeTakeFirst();
    if (done) return JSON.parse(done.details) as StepResult;
    if (config.testStepDelayMs) await sleep(config.testStepDelayMs);
    const result = await CHECKS[name].run(facts);
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

  const results: StepResults = {};
  let failed: { step: CheckStep; result: StepResult } | null = null;
  for (const name of CHECK_ORDER) {
    if (CHECKS[name].skipIf?.(results)) break;
    const result = await step(name);
    (results as Record<CheckStep, StepResult>)[name] = result;
    if (result.status === 'failed') {
      failed = { step: name, result };
      break;
    }
  }

  await settle(svc, job, cert, { results, failed });
}

/** What a run found, for `settle`: the checks' results and the one that failed, if any. */
interface RunOutcome {
  results: StepResults;
  failed: { step: CheckStep; result: StepResult } | null;
}

/** The row changed (or the chain refused) between reading it and writing the verdict: decide again. */
class Overtaken extends Error {}


/**
 * Ends the run: the row is read again and the record with it, and the record's state decides first
 * (revoked; another holder's; confirmed by an institution: the row takes that state, no platform
 * verdict is sent); otherwise the platform's verdict is recorded. Every write is conditional on the row
 * being as read (status and updated_at), so a state the chain follower wrote meanwhile is never
 * overwritten: the run decides again from what it finds then. `outcome` is null for a row the chain
 * already finished with (revoked, superseded), whose checks are not run again.
 */
async function settle(svc: Services, job: VerificationJobRow, cert: CertificateRow, outcome: RunOutcome | null) {
  const { db, chain, config } = svc;
  const hash = fromHex(cert.sha256);
  for (let round = 0; round < 3; round++) {
    const row = await findCertificate(db, cert.id);
    if (!row) return finishJob(svc, job, null);
    const record = await chain.readCertificate(hash);
    // The content check passed for the claims the row shows now (the follower may have replaced them).
    const contentChecked = !!outcome && !outcome.failed && outcome.results.document_checks?.status === 'success' && sameClaims(cert, row);
    // Someone else's word already decided this record (revoked, superseded by the rightful holder's
    // issuance, confirmed by the institution): the row follows the chain, no platform verdict is sent.
    const decided = await chainDecision(svc, row, record, { contentChecked });
    if (decided) {
      const change = await chainChange(svc, row, record, { contentChecked });
      if (!change) return finishJob(svc, job, row); // the follower already wrote it
      // Written here before the follower got to it: the same change, with its entry in the history.
      const now = new Date().toISOString();
      if (await finishWithoutVerdict(svc, row, job, rowUpdateOf(change, now), (trx) => afterChainChange(trx, row, change, now, { signature: null, chain: svc.chain }))) return;
      continue;
    }
    // A revoked or superseded row is never verified again, whatever a stale record read said.
    if (!outcome || row.verification_status === 'revoked' || row.verification_status === 'superseded') return finishJob(svc, job, row);
    const { results, failed } = outcome;

    // Content nobody could read is never recorded as verified: the record stays pending on chain and
    // the holder sees why, until the institution confirms it or the holder uploads a readable file.
    if (!failed && results.document_checks?.status === 'pending') {
      const awaiting: AwaitingConfirmationDetails = {
        kind: 'awaiting_confirmation',
        state: 'awaiting_confirmation',
        reason: `${results.document_checks.message} A certificate whose content could not be checked is not marked verified: it stays pending until the institution that issued it confirms it on chain, or you add a PDF of it with selectable text.`,
        reason_code: ReasonCode.None,
        reason_name: 'none',
        tier: 'none',
        content_checked: false,
        step: 'document_checks',
      };
      const now = new Date().toISOString();
      if (await finishWithoutVerdict(svc, row, job, { verification_status: 'pending', tier: 'none', verification_details: JSON.stringify(awaiting), updated_at: now })) return;
      continue;
    }

    if (config.testStepDelayMs) await sleep(config.testStepDelayMs);
    try {
      await recordVerdict(svc, row, job, record, results, failed);
      return;
    } catch (e) {
      if (e instanceof Overtaken) continue;
      // The chain refused the verdict: if the record changed meanwhile (a revocation, a confirmation, a
      // supersede), its state decides on the next round; any other refusal is retried by the queue.
      if (e instanceof ChainError && (await chainDecision(svc, row, await chain.readCertificate(hash)))) continue;
      throw e;
    }
  }
  throw new Error('The certificate kept changing while its verdict was being recorded; the run will be retried.');
}

/** The `chain_record` step: the verdict on chain (unless this run already sent it), its log entry and the row, in one DB transaction. */
async function recordVerdict(
  svc: Services,
  cert: CertificateRow,
  job: VerificationJobRow,
  record: CertificateAccount | null,
  results: StepResults,
  failed: { step: CheckStep; result: StepResult } | null,
) {
  const { db, chain, bus } = svc;
  const hash = fromHex(cert.sha256);
  const verified = !failed;
  const reasonCode = failed ? (failed.result.reasonCode ?? ReasonCode.Other) : ReasonCode.None;

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
        const receipt = await chain.recordVerification({ hash, verified, reasonCode }, { db: trx, kind: 'record_verification', certificateId: cert.id });
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
      const tier = verified ? (trustTierName(after?.tier ?? TrustTier.None) ?? 'none') : 'none';
      const now = new Date().toISOString();
      const details: VerdictDetails = failed
        ? { kind: 'verdict', reason: failed.result.message, reason_code: reasonCode, reason_name: reasonName(reasonCode), tier: 'none', step: failed.step, signature }
        : {
            kind: 'verdict',
            reason: results.issuer_verification?.message ?? 'Verified',
            reason_code: 0,
            reason_name: 'none',
            tier,
            issuer: results.issuer_verification?.issuer ?? null,
            content_checked: true,
            ...(results.document_checks?.holder_name ? { holder_name: results.document_checks.holder_name } : {}),
            tamper_signals: results.document_checks?.tamper_signals ?? [],
            signature,
          };
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
      // Only over the row as it was read: a state the chain follower wrote meanwhile (a revocation, a
      // confirmation) is never overwritten; the transaction (and the verdict on the embedded chain) is undone.
      const written = await updateCertificate(
        trx,
        cert.id,
        { verification_status: verified ? 'verified' : 'rejected', verification_details: JSON.stringify(details), tier, verify_signature: signature, updated_at: now },
        { ifUnchangedSince: cert.updated_at, ifStatus: cert.verification_status },
      );
      if (!written) throw new Overtaken('The certificate changed while its verdict was recorded.');
      await trx.updateTable('verification_job').set({ status: 'done', locked_until: null, last_error: null, updated_at: now }).where('id', '=', job.id).execute();
    } catch (e) {
      undo?.();
      throw e;
    }
  });
  bus.publish({ certificate_id: cert.id, verification_status: verified ? 'verified' : 'rejected', step: null, step_status: null, updated_at: new Date().toISOString() });
}

/**
 * Ends a job without sending a verdict: the row takes `set` if it is still as read (status and
 * updated_at), and the job is done. False when the row changed meanwhile (nothing is written).
 */
async function finishWithoutVerdict(
  svc: Services,
  row: CertificateRow,
  job: VerificationJobRow,
  set: CertificateUpdate & { verification_status: CertificateRow['verification_status']; updated_at: string },
  also?: (trx: Kysely<Database>) => Promise<void>,
): Promise<boolean> {
  const written = await svc.db.transaction().execute(async (trx) => {
    if (!(await updateCertificate(trx, row.id, set, { ifUnchangedSince: row.updated_at, ifStatus: row.verification_status }))) return false;
    await also?.(trx);
    await trx.updateTable('verification_job').set({ status: 'done', locked_until: null, last_error: null, updated_at: set.updated_at }).where('id', '=', job.id).execute();
    return true;
  });
  if (written) svc.bus.publish({ certificate_id: row.id, verification_status: set.verification_status, step: null, step_status: null, updated_at: set.updated_at });
  return written;
}

/** Ends a job that has nothing to write: the row (if any) already says what the chain says. */
async function finishJob(svc: Services, job: VerificationJobRow, row: CertificateRow | null) {
  const now = new Date().toISOString();
  await svc.db.updateTable('verification_job').set({ status: 'done', locked_until: null, last_error: null, updated_at: now }).where('id', '=', job.id).execute();
  if (row) svc.bus.publish({ certificate_id: row.id, verification_status: row.verification_status, step: null, step_status: null, updated_at: now });
}

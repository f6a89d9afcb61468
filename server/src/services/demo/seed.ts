import { CertificateStatus, IssuerStatus, fromHex } from '../../../../shared/program/codec';
import { certificatePda } from '../../../../shared/program/pda';
import { ReasonCode, reasonName } from '../../../../shared/program/reasons';
import type { CertificateRow } from '../../db/schema';
import { sha256Hex } from '../files/index.js';
import type { Services } from '../index';
import { certificateFileKey } from '../certificates/intake';

import { createHash } from 'node:crypto';
import { Keypair, type PublicKey } from '@solana/web3.js';
import { loadOrCreateDemoKeys } from './keys';
import type { ConfirmedDetails, VerdictDetails } from '../../../../shared/schemas/details';
import { findCertificate, insertCertificate } from '../../db/certificates';
import { reconcileCertificate } from '../chain-sync/reconcile';
import { appendAudit } from '../../db/audit';
import { CHECKS, type DocumentStepResult, type HashStepResult, type IssuerStepResult, type JobFacts } from '../verification/steps';
import { appendEvent } from '../../db/events';

// Demo data for the embedded chain (ATTESTA_DEMO_DATA=false turns it off): an approved issuer and a
// demo wallet holding cert-1 (verified, issuer-confirmed), cert-2 (pending) and cert-3 (rejected).
// Their keys are random per installation and stay in the data dir (./keys.ts); never on a real cluster.
// What their logs and details say is what happened: cert-1 and cert-3 are read by the verification's own
// checks (services/verification/steps.ts: the file against its record, the document's text against the
// claims and the demo holder's name, the institution), and their results are written as those checks
// gave them; cert-2 was never checked, and says nothing.
export const DEMO_USER_ID = 'u_demo';
export const DEMO_ISSUER_NAME = 'Attesta Demo University';
/**
 * The demo institution's domain: a reserved example name (RFC 2606) that nobody controls, so nobody can
 * prove it. The seed approves the institution without a proof, and every surface says so: its profile
 * stays "not proven", the audit log records the seed's approval as demo data, and a verifier of cert-1
 * reads that the domain is not proven.
 */
export const DEMO_ISSUER_DOMAIN = 'demo.attesta.example';
const DEMO_WITHOUT_PROOF = `Demo data: approved by the demo seed without a domain proof (${DEMO_ISSUER_DOMAIN} is a reserved example domain nobody can prove).`;
const DEMO_HOLDER_NAME = 'Alex Demo';

interface DemoCert {
  id: string;
  title: string;
  institution: string;
  program: string;
  issueDate: string;
  /** Text printed on the PDF when it differs from the claim (the rejected one). */
  printedProgram?: string;
  outcome: 'verified' | 'pending' | 'rejected';
}

const DEMO: DemoCert[] = [
  { id: 'cert-1', title: 'Bachelor of Science', institution: DEMO_ISSUER_NAME, program: 'Computer Science', issueDate: '2024-06-15', outcome: 'verified' },
  { id: 'cert-2', title: 'Cloud Practitioner Certificate', institution: 'Open Cloud Institute', program: 'Cloud Foundations', issueDate: '2025-02-01', outcome: 'pending' },
  { id: 'cert-3', title: 'Data Analytics Diploma', institution: 'Metro Data School', program: 'Advanced Data Analytics', printedProgram: 'Introduction to Spreadsheets', issueDate: '2023-11-20', outcome: 'rejected' },
];

/**
 * The serial printed on this installation's demo certificates ("Certificate no. …"), derived from its
 * own demo holder key: each installation's demo files (and so their hashes, their records) are its own.
 * Releases before it printed none, so their demo records can be told apart (and retired).
 */
export function demoSerial(holder: PublicKey, id: string): string {
  return `AD-${createHash('sha256').update(`attesta-demo-serial:${holder.toBase58()}:${id}`).digest('hex').slice(0, 12).toUpperCase()}`;
}

export async function demoPdf(c: DemoCert, holderName: string, serial?: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib'); // only when demo files are made
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fixed = new Date(`${c.issueDate}T12:00:00Z`);
  doc.setTitle(c.title);
  doc.setProducer('Attesta demo data');
  doc.setCreator('Attesta');
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  const page = doc.addPage([842, 595]);
  const serif = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  const center = (text: string, y: number, size: number, font = serif) =>
    page.drawText(text, { x: (842 - font.widthOfTextAtSize(text, size)) / 2, y, size, font, color: rgb(0.1, 0.12, 0.2) });
  page.drawRectangle({ x: 24, y: 24, width: 794, height: 547, borderWidth: 3, borderColor: rgb(0.2, 0.3, 0.6) });
  center(c.institution, 500, 28, bold);
  center('This certifies that', 430, 16);
  center(holderName, 390, 30, bold);
  center('has successfully completed', 350, 16);
  center(c.printedProgram ?? c.program, 310, 22, bold);
  center(`and is awarded the ${c.title}`, 270, 18);
  center(`Issued on ${c.issueDate}`, 200, 14);
  if (serial) center(`Certificate no. ${serial}`, 150, 11);
  return doc.save({ useObjectStreams: false });
}

/**
 * Data dirs seeded before demo keys were made per installation hold demo records issued by a demo
 * institution to a demo holder whose keys anyone can derive from the source
 * (`sha256("attesta-demo:<label>")`). Their rights are retired at start:
 * - the derivable institution is suspended (it can issue and confirm nothing more);
 * - every legacy demo record (the demo holder's rows, and the files the legacy seed made) is revoked on
 *   chain by the operator, the registry admin, with reason `revoked_superseded`: the derivable
 *   institution can no longer revoke it (AlreadyRevoked) and the derivable holder can neither ask for
 *   its confirmation (InvalidCertificateStatus) nor mint it (NotVerified);
 * - the legacy demo rows (cert-1..cert-3 of the demo holder, with their blobs, logs, jobs and mint
 *   attempts) are removed, and `seedDemoData` then seeds them afresh with this installation's keys
 *   (new files: a per-installation serial, so new hashes and records); other rows of the derivable
 *   holder follow their revoked records;
 * - the demo user moves to this installation's own holder key.
 * Returns what it changed; a second start finds nothing left to do.
 */
export async function retireDerivableDemoKeys(
  svc: Services,
  holder: Keypair,
): Promise<{ issuerSuspended: boolean; userMoved: boolean; recordsRevoked: number; rowsRemoved: number }> {
  const { db, chain, blobs } = svc;
  const derived = (label: string) => Keypair.fromSeed(createHash('sha256').update(`attesta-demo:${label}`).digest()).publicKey;
  const legacyIssuer = derived('issuer');
  const legacyHolderKey = derived('holder');
  const legacyHolder = legacyHolderKey.toBase58();
  let issuerSuspended = false;
  const onChain = await chain.readIssuer(legacyIssuer);
  if (onChain && onChain.status !== IssuerStatus.Suspended) {
    await chain.setIssuerStatus({ authority: legacyIssuer, status: IssuerStatus.Suspended }, { kind: 'set_issuer_status' });
    issuerSuspended = true;
  }

  // The legacy demo records: rows of the derivable holder, and the files the legacy seed printed
  // (without a serial: their hashes are the same on every old installation).
  const rows = await db.selectFrom('certificate').select(['id', 'user_id', 'sha256', 'file_key']).where('holder_wallet', '=', legacyHolder).execute();
  const hashes = new Set(rows.map((r) => r.sha256));
  if (onChain || rows.length) for (const c of DEMO) hashes.add(sha256Hex(await demoPdf(c, DEMO_HOLDER_NAME)));
  let recordsRevoked = 0;
  for (const sha256 of hashes) {
    const hash = fromHex(sha256);
    const record = await chain.readCertificate(hash);
    if (!record || record.status === CertificateStatus.Revoked) continue;
    if (!record.holder.equals(legacyHolderKey) && !record.issuer?.equals(legacyIssuer)) continue;
    await chain.revokeCertificate({ hash, reasonCode: ReasonCode.RevokedSuperseded }, { kind: 'revoke_certificate' });
    recordsRevoked++;
  }

  // The legacy demo rows go (seeded again below with this installation's keys); their logs, jobs and
  // mint attempts go with them (ON DELETE CASCADE); the transactions sent for them stay, unlinked.
  const demoIds = new Set(DEMO.map((c) => c.id));
  const legacyRows = rows.filter((r) => demoIds.has(r.id));
  if (legacyRows.length) {
    const ids = legacyRows.map((r) => r.id);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('chain_transaction').set({ certificate_id: null }).where('certificate_id', 'in', ids).execute();
      await trx.deleteFrom('certificate').where('id', 'in', ids).where('holder_wallet', '=', legacyHolder).execute();
    });
    for (const r of legacyRows) await blobs.delete(r.file_key).catch(() => undefined);
  }
  // Anything else the derivable holder added: its row follows its revoked record.
  for (const r of rows) if (!demoIds.has(r.id)) await reconcileCertificate(svc, r.sha256);

  const moved = await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('user').select('id').where('wallet_address', '=', legacyHolder).executeTakeFirst();
    if (!user) return false;
    await trx.deleteFrom('session').where('user_id', '=', user.id).execute();
    await trx.updateTable('user').set({ wallet_address: holder.publicKey.toBase58(), updated_at: new Date().toISOString() }).where('id', '=', user.id).execute();
    return true;
  });
  if (issuerSuspended || moved || recordsRevoked || legacyRows.length) {
    console.warn(
      'demo data: this data dir was seeded with demo keys anyone can derive; the old demo institution is suspended, its demo records are revoked (revoked_superseded), and the demo user and demo certificates now use this installation\'s own keys (demo-keys.json).',
    );
  }
  return { issuerSuspended, userMoved: moved, recordsRevoked, rowsRemoved: legacyRows.length };
}

export async function seedDemoData(svc: Services): Promise<void> {
  const { db, chain, blobs } = svc;
  const { issuer, holder } = loadOrCreateDemoKeys(svc.config.dataDir);
  await retireDerivableDemoKeys(svc, holder);

  const now = new Date().toISOString();
  const onChainIssuer = await chain.readIssuer(issuer.publicKey);
  if (!onChainIssuer) await chain.registerIssuer({ authority: issuer, name: DEMO_ISSUER_NAME, uri: `https://${DEMO_ISSUER_DOMAIN}` }, { kind: 'register_issuer' });
  if (onChainIssuer?.status !== IssuerStatus.Approved) {
    const r = await chain.setIssuerStatus({ authority: issuer.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
    await appendAudit(db, { actor_wallet: chain.operator.toBase58(), actor_role: 'platform', action: 'platform.demo_approve', target: issuer.publicKey.toBase58(), signature: r.signature, details: { name: DEMO_ISSUER_NAME, domain: DEMO_ISSUER_DOMAIN, note: DEMO_WITHOUT_PROOF } });
  }
  // Its profile: the domain, not proven (no check was made; a "Check now" would fail, and say why).
  await db
    .insertInto('issuer_profile')
    .values({ authority: issuer.publicKey.toBase58(), domain: DEMO_ISSUER_DOMAIN, name: DEMO_ISSUER_NAME, registered_at: now, proof_status: 'unproven', proof_method: null, proven_at: null, checked_at: null, findings: null })
    .onConflict((c) => c.column('authority').doNothing())
    .execute();

  const holderName = DEMO_HOLDER_NAME;
  await db
    .insertInto('user')
    .values({ id: DEMO_USER_ID, wallet_address: holder.publicKey.toBase58(), full_name: holderName, email: null, profile_image_key: null, profile_image_url: null, created_at: now, updated_at: now })
    .onConflict((c) => c.doNothing())
    .execute();

  for (const c of DEMO) {
    if (await findCertificate(db, c.id)) continue;
    const pdf = await demoPdf(c, holderName, demoSerial(holder.publicKey, c.id));
    const sha256 = sha256Hex(pdf);
    const hash = fromHex(sha256);
    const key = certificateFileKey(c.id);
    await blobs.put(key, pdf, 'application/pdf');

    let record = await chain.readCertificate(hash);
    const sigs: { anchor?: string; verify?: string } = {};
    if (!record) {
      const r =
        c.outcome === 'verified'
          ? await chain.issueCertificate({ authority: issuer, hash, holder: holder.publicKey }, { kind: 'issue_certificate', certificateId: c.id })
          : await chain.anchorCertificate({ hash, holder: holder.publicKey }, { kind: 'anchor_certificate', certificateId: c.id });
      sigs.anchor = r.signature;
      record = await chain.readCertificate(hash);
    }

    // The verification's own checks, on this file and these claims (cert-2 is left for its holder to start).
    const claims = { title: c.title, institution_name: c.institution, program_name: c.program };
    const facts: JobFacts = {
      svc,
      cert: { ...claims, sha256, holder_wallet: holder.publicKey.toBase58() } as CertificateRow,
      hash,
      file: async () => pdf,
      record: () => chain.readCertificate(hash),
      holderName: async () => holderName,
    };
    const checked: { hash?: HashStepResult; document?: DocumentStepResult; issuer?: IssuerStepResult } = {};
    if (c.outcome !== 'pending') {
      try {
        checked.hash = await CHECKS.hash_verification.run(facts);
        if (checked.hash.status === 'success') checked.document = await CHECKS.document_checks.run(facts);
        if (c.outcome === 'verified' && checked.document?.status === 'success') checked.issuer = await CHECKS.issuer_verification.run(facts);
      } catch (e) {
        // Seeded without what did not run (and saying nothing of it): the server starts either way.
        console.warn(`demo data: ${c.id}: its checks could not run (${(e as Error).message}); seeded without them.`);
      }
    }
    const read = checked.document?.status === 'success';
    // cert-3's verdict is the one its check reached (a claimed program its text does not name); a check
    // that reached none leaves it pending, as the pipeline would.
    const rejection = c.outcome !== 'rejected' ? null : checked.document?.status === 'failed' ? checked.document : checked.hash?.status === 'failed' ? checked.hash : null;
    const outcome: DemoCert['outcome'] = c.outcome === 'rejected' ? (rejection ? 'rejected' : 'pending') : c.outcome;
    if (outcome === 'rejected' && record?.status === CertificateStatus.Pending) {
      const r = await chain.recordVerification({ hash, verified: false, reasonCode: rejection!.reasonCode ?? ReasonCode.ContentMismatch }, { kind: 'record_verification', certificateId: c.id });
      sigs.verify = r.signature;
    }

    const issuedReason = `Issued by ${DEMO_ISSUER_NAME} (${DEMO_ISSUER_DOMAIN}, domain not proven: demo data): its own key signed the record.`;
    const details: VerdictDetails | ConfirmedDetails | null =
      outcome === 'verified'
        ? read
          ? // Read and matched, as the pipeline writes it for a record the institution's key already signed.
            {
              kind: 'verdict',
              reason: issuedReason,
              reason_code: 0,
              reason_name: 'none',
              tier: 'issuer_confirmed',
              issuer: { authority: issuer.publicKey.toBase58(), name: DEMO_ISSUER_NAME },
              content_checked: true,
              holder_name: holderName,
              tamper_signals: checked.document?.tamper_signals ?? [],
            }
          : // Not read (the document check could not run): what the institution's issuing says, as the issue flow writes it.
            {
              kind: 'confirmed',
              reason: issuedReason,
              reason_code: 0,
              reason_name: 'none',
              tier: 'issuer_confirmed',
              issuer: { authority: issuer.publicKey.toBase58(), name: DEMO_ISSUER_NAME, domain: DEMO_ISSUER_DOMAIN },
              confirmed_at: now,
              claims_confirmed: true,
              content_checked: false,
            }
        : outcome === 'rejected'
          ? {
              kind: 'verdict',
              reason: rejection!.message,
              reason_code: rejection!.reasonCode ?? ReasonCode.ContentMismatch,
              reason_name: reasonName(rejection!.reasonCode ?? ReasonCode.ContentMismatch),
              tier: 'none',
              step: rejection === checked.document ? 'document_checks' : 'hash_verification',
              signature: sigs.verify ?? null,
            }
          : null;
    const row: CertificateRow = {
      id: c.id,
      user_id: DEMO_USER_ID,
      title: c.title,
      institution_name: c.institution,
      program_name: c.program,
      issue_date: c.issueDate,
      verification_status: outcome,
      verification_details: details ? JSON.stringify(details) : null,
      tier: outcome === 'verified' ? 'issuer_confirmed' : 'none',
      file_key: key,
      file_name: `${c.id}.pdf`,
      file_mime: 'application/pdf',
      file_size: pdf.length,
      sha256,
      original_sha256: null,
      original_mime: null,
      record_address: certificatePda(hash, chain.programId)[0].toBase58(),
      holder_wallet: holder.publicKey.toBase58(),
      anchor_signature: sigs.anchor ?? null,
      verify_signature: sigs.verify ?? null,
      arweave_url: null,
      nft_mint_address: null,
      mint_signature: null,
      issuer_authority: c.outcome === 'verified' ? issuer.publicKey.toBase58() : null,
      requested_issuer: null,
      claims_confirmed: c.outcome === 'verified' ? 1 : 0,
      revocation_note: null,
      created_at: now,
      updated_at: now,
    };
    await db.transaction().execute(async (trx) => {
      await insertCertificate(trx, row);
      // Each check's log entry as the pipeline writes it: its status and message, and what it found.
      const log = (step: string, status: 'success' | 'pending' | 'failed', details: { message: string }) =>
        trx.insertInto('verification_log').values({ id: `l_${c.id}_${step}`, certificate_id: c.id, job_id: `demo-${c.id}`, verification_step: step, status, details: JSON.stringify(details), created_at: now }).execute();
      if (checked.hash) await log('hash_verification', checked.hash.status, checked.hash);
      if (checked.document) await log('document_checks', checked.document.status, checked.document);
      if (checked.issuer) await log('issuer_verification', checked.issuer.status, checked.issuer);
      if (sigs.verify) await log('chain_record', 'success', { message: 'Verdict rejected recorded on chain', signature: sigs.verify } as { message: string });
      // cert-1 was issued by the demo institution: an entry of its history of its own, beside the checks
      // the platform ran on it at seeding.
      if (c.outcome === 'verified') {
        await appendEvent(trx, {
          certificate_id: c.id,
          kind: 'issued',
          actor: { role: 'issuer', wallet: issuer.publicKey.toBase58(), name: DEMO_ISSUER_NAME, domain: DEMO_ISSUER_DOMAIN },
          source: 'attesta',
          signature: sigs.anchor ?? null,
          message: `${issuedReason} It issued the details “${c.title}”, ${c.program}, ${c.institution}, ${c.issueDate} to this wallet.`,
          details: { claims: { title: c.title, institution_name: c.institution, program_name: c.program, issue_date: c.issueDate }, claims_confirmed: true },
          at: now,
        });
      }
    });
  }
}

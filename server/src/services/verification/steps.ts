import { VERIFICATION_STEPS, type VerificationStep } from '../../../../shared/constants';
import { IssuerStatus, TrustTier, type CertificateAccount } from '../../../../shared/program/codec';
import { ReasonCode } from '../../../../shared/program/reasons';
import type { CertificateRow } from '../../db/schema';
import { checkDocument, DocumentUnreadableError, type ClaimField } from '../documents/index.js';
import { sameInstitution } from '../issuers/names';
import { checkedPdf, sha256Hex } from '../files/index.js';
import type { Services } from '../index';
import { mismatchReason } from './claims';

// The checks of a verification run, as data: one entry per step of VERIFICATION_STEPS before the
// verdict (`chain_record`, written by the pipeline itself). Each reads what the job loaded once —
// the stored file, the chain record — and returns what its log entry says.

export type CheckStep = Exclude<VerificationStep, 'chain_record'>;

interface StepOutcome {
  status: 'success' | 'pending' | 'failed';
  message: string;
  /** Set when the step decides the verdict: the rejection reason. */
  reasonCode?: number;
}

export type HashStepResult = StepOutcome & { sha256?: string; expected_sha256?: string; actual_sha256?: string };

export type DocumentStepResult = StepOutcome & {
  page_count?: number;
  producer?: string | null;
  tamper_signals?: string[];
  text_matches?: { title: boolean; institution: boolean; program: boolean; holder?: boolean };
  /** The holder's name the document was searched for (their profile name when the run began). */
  holder_name?: string;
  text_source?: string;
  ocr_confidence?: number | null;
  ocr_ms?: number | null;
  ocr_note?: string;
  content_checked?: false;
  missing?: ClaimField[];
  closest?: unknown;
};

export type IssuerStepResult = StepOutcome & {
  tier?: 'issuer_confirmed' | 'platform_verified';
  issuer?: { authority: string; name: string | null } | null;
  /** Platform tier: an approved institution of the claimed name exists (the holder may ask it to confirm). */
  institution_approved?: boolean;
};

export interface StepResults {
  hash_verification?: HashStepResult;
  document_checks?: DocumentStepResult;
  issuer_verification?: IssuerStepResult;
}
export type StepResult = NonNullable<StepResults[CheckStep]>;

/** What a run reads once and hands to its steps. */
export interface JobFacts {
  svc: Services;
  cert: CertificateRow;
  hash: Uint8Array;
  /** The stored file (read on first use, at most once per run). */
  file(): Promise<Uint8Array | null>;
  /** The chain record as the run found it (read on first use, at most once per run). */
  record(): Promise<CertificateAccount | null>;
  /** The holder's profile name (read on first use, at most once per run); empty when they set none. */
  holderName(): Promise<string>;
}

const CLAIM_FIELDS: readonly ClaimField[] = ['title', 'institution', 'program', 'holder'];

export const HOLDER_NAME_MISSING =
  "Your profile has no full name, so the check cannot tell whether this certificate names you. Add your full name on the Profile page, then choose Try Again.";

export const CHECKS: { [K in CheckStep]: { run: (job: JobFacts) => Promise<NonNullable<StepResults[K]>>; skipIf?: (results: StepResults) => boolean } } = {
  hash_verification: { run: hashStep },
  document_checks: { run: documentStep },
  // Content not checked: nothing for the issuer step to add; the certificate waits (pipeline.ts).
  issuer_verification: { run: issuerStep, skipIf: (r) => r.document_checks?.status === 'pending' },
};

/** The checks in VERIFICATION_STEPS order. */
export const CHECK_ORDER: readonly CheckStep[] = VERIFICATION_STEPS.filter((s): s is CheckStep => s in CHECKS);

/** The SHA-256 of a run's file, hashed once for the steps that need it (file() hands each the same bytes). */
const hashes = new WeakMap<Uint8Array, string>();
function hashOf(bytes: Uint8Array): string {
  let hex = hashes.get(bytes);
  if (hex === undefined) hashes.set(bytes, (hex = sha256Hex(bytes)));
  return hex;
}

async function hashStep({ cert, file, record }: JobFacts): Promise<HashStepResult> {
  const bytes = await file();
  if (!bytes) return { status: 'failed', message: 'The stored certificate file is missing.', reasonCode: ReasonCode.HashMismatch };
  const actual = hashOf(bytes);
  if (actual !== cert.sha256) {
    return { status: 'failed', message: 'The stored file does not match the hash recorded on chain.', reasonCode: ReasonCode.HashMismatch, expected_sha256: cert.sha256, actual_sha256: actual };
  }
  const r = await record();
  if (!r) return { status: 'failed', message: 'No on-chain record exists for this file.', reasonCode: ReasonCode.HashMismatch };
  if (r.holder.toBase58() !== cert.holder_wallet) {
    return { status: 'failed', message: 'The on-chain record belongs to another wallet.', reasonCode: ReasonCode.HashMismatch };
  }
  return { status: 'success', message: 'The file matches the SHA-256 recorded on chain for this holder.', sha256: actual };
}

async function documentStep({ cert, file, holderName }: JobFacts): Promise<DocumentStepResult> {
  const bytes = await file();
  if (!bytes) return { status: 'failed', message: 'The stored certificate file is missing.', reasonCode: ReasonCode.UnreadableDocument };
  const name = (await holderName()).trim();
  if (!name) {
    // Nothing to look for: the check cannot say whose certificate this is.
    return { status: 'failed', message: HOLDER_NAME_MISSING, reasonCode: ReasonCode.ContentMismatch, missing: ['holder'], holder_name: '' };
  }
  try {
    // Keyed by the hash of the bytes read here, not the row's: facts of other bytes never apply.
    const checkedAtUpload = checkedPdf(hashOf(bytes));
    const r = await checkDocument(bytes, { title: cert.title, institution_name: cert.institution_name, program_name: cert.program_name, holder_name: name }, checkedAtUpload ? { checkedAtUpload } : {});
    const missing = CLAIM_FIELDS.filter((field) => !r.textMatches[field]);
    const base = { page_count: r.pageCount, producer: r.producer ?? null, tamper_signals: r.tamperSignals, text_matches: r.textMatches, text_source: r.textSource, ocr_confidence: r.ocrConfidence ?? null, ocr_ms: r.ocrMs ?? null, holder_name: name };
    if (!r.text.trim()) {
      // No text layer and OCR read too little (or timed out): the content cannot be confirmed,
      // which is shown as "pending" instead of rejecting every photo.
      return {
        status: 'pending',
        message: "This document has no readable text (a scanned or photographed certificate), so its title, institution, program and the holder's name could not be checked automatically.",
        content_checked: false,
        ...(r.ocrNote ? { ocr_note: r.ocrNote } : {}),
        ...base,
      };
    }
    if (missing.length) {
      // Says what the document names instead (the text closest to each claim), so a typo reads as one.
      const claimOf: Record<ClaimField, string> = { title: cert.title, institution: cert.institution_name, program: cert.program_name, holder: name };
      const { message, closest } = mismatchReason(r.text, missing.map((field) => ({ field, claim: claimOf[field] })), r.textSource === 'ocr');
      return { status: 'failed', message, reasonCode: ReasonCode.ContentMismatch, missing, closest, ...base };
    }
    // Tamper signals are flagged for people to see; on their own they do not reject (see notes).
    const named = `The document names the claimed title, institution and program, and the holder, ${name}.`;
    return {
      status: 'success',
      message: r.tamperSignals.length ? `${named} Flagged: ${r.tamperSignals.join(' ')}` : named,
      ...base,
    };
  } catch (e) {
    if (e instanceof DocumentUnreadableError) return { status: 'failed', message: e.message, reasonCode: ReasonCode.UnreadableDocument };
    throw e;
  }
}

async function issuerStep({ svc, cert, record }: JobFacts): Promise<IssuerStepResult> {
  const r = await record();
  // `issuer` names the institution that confirmed the record only at the issuer-confirmed tier;
  // below it, the institution the holder asked (a request is not a confirmation).
  if (r?.issuer && r.tier === TrustTier.IssuerConfirmed) {
    const issuer = await svc.chain.readIssuer(r.issuer);
    if (!issuer || issuer.status !== IssuerStatus.Approved) {
      return { status: 'failed', message: 'The issuer named on chain is not approved.', reasonCode: ReasonCode.IssuerNotApproved, issuer: { authority: r.issuer.toBase58(), name: issuer?.name ?? null } };
    }
    // Named with its domain and whether that is proven now: its key alone does not say who it is.
    const profile = await svc.db.selectFrom('issuer_profile').select(['domain', 'proof_status']).where('authority', '=', r.issuer.toBase58()).executeTakeFirst();
    const domain = profile?.domain ?? issuer.uri;
    return {
      status: 'success',
      message:
        profile?.proof_status === 'proven'
          ? `Confirmed on chain by the approved institution ${issuer.name} (${domain}, domain proven): its own key signed the record.`
          : `Signed on chain with the approved institution ${issuer.name}'s own key, but its domain ${domain} is not proven.`,
      tier: 'issuer_confirmed',
      issuer: { authority: r.issuer.toBase58(), name: issuer.name },
    };
  }
  // The rule by which the holder may ask an institution (issuers/names.ts): only the one the claims name.
  const match = (await svc.chain.listIssuers()).find((i) => i.status === IssuerStatus.Approved && sameInstitution(cert.institution_name, i.name));
  // The platform's check is never the institution's word: the step says whose word it is not. A name
  // match is not a confirmation either (`issuer` stays null below the issuer-confirmed tier); whether
  // the holder can ask that institution is kept for the page (`institution_approved`).
  return {
    status: 'success',
    message: `Not confirmed by ${cert.institution_name}: checked by Attesta only.`,
    tier: 'platform_verified',
    issuer: null,
    institution_approved: !!match,
  };
}

// A certificate's `verification_details`: why it has the status it has, in one of a few shapes,
// told apart by `kind`. The server writes them (verification pipeline, retry notices, the chain
// follower, demo data) and the app reads them; rows written before `kind` existed are recognised by
// their fields (detailsKind).
import type { TrustTierName } from '../constants';

/** An institution or the platform, as the chain follower names who acted. */
export interface ChainParty {
  authority: string;
  role: 'issuer' | 'platform' | 'unknown';
  name: string | null;
  domain: string | null;
}

/** The platform's (or the demo issuer's) verdict recorded on chain: verified, or rejected with a reason. */
export interface VerdictDetails {
  kind: 'verdict';
  reason: string;
  reason_code?: number;
  reason_name?: string;
  tier?: TrustTierName;
  /** The approved issuer named on chain or by name, when there is one. */
  issuer?: { authority: string; name: string | null } | null;
  /** True when the document's text was read and matched the claim. */
  content_checked?: boolean;
  /** The holder's name the document's text was found to name (their profile name at the time). */
  holder_name?: string;
  tamper_signals?: string[];
  /** Rejected: the step that decided it. */
  step?: string;
  /** The verdict transaction. */
  signature?: string | null;
}

export type RetryProblem = 'network_unreachable' | 'transaction_expired' | 'chain_refused' | 'internal';

/** A pending certificate whose verification run failed: retrying automatically, or given up. */
export interface RetryDetails {
  kind: 'retry';
  reason: string;
  retry: {
    state: 'retrying' | 'gave_up';
    problem: RetryProblem;
    /** The attempt that just failed (1-based). */
    attempt: number;
    max_attempts: number;
    /** ISO time of the next automatic attempt; null after the last one. */
    next_attempt_at: string | null;
  };
}

/** Content nobody could read: pending until the institution confirms it on chain. */
export interface AwaitingConfirmationDetails {
  kind: 'awaiting_confirmation';
  state: 'awaiting_confirmation';
  reason: string;
  reason_code: number;
  reason_name: string;
  tier: 'none';
  content_checked: false;
  step: 'document_checks';
}

/** Revoked on chain by the issuer or the operator. */
export interface RevokedDetails {
  kind: 'revoked';
  reason: string;
  reason_code: number;
  reason_name: string;
  tier: string;
  revoked_at: string;
  revoked_by: ChainParty | null;
}

/** The file's record now belongs to another holder: an institution issued it to them. */
export interface SupersededDetails {
  kind: 'superseded';
  reason: string;
  reason_code: number;
  reason_name: string;
  tier: 'none';
  superseded_at: string;
  superseded_by: ChainParty | null;
  new_holder_wallet: string;
}

/** The institution the holder asked confirmed the certificate on chain with its own key. */
export interface ConfirmedDetails {
  kind: 'confirmed';
  reason: string;
  reason_code: number;
  reason_name: string;
  tier: 'issuer_confirmed';
  issuer: { authority: string; name: string | null; domain: string | null } | null;
  confirmed_at: string;
  /**
   * The institution confirmed the holder's claims (title, institution, program, issue date) through the
   * product's own flow. False when it confirmed the file on chain only: the claims shown are the holder's.
   */
  claims_confirmed?: boolean;
  /**
   * The platform's content check passed for the claims shown (before or during the confirmation), and
   * they name the institution that confirmed: a confirmation by an institution the claims do not name
   * covers the file only, whatever the platform read in it.
   */
  content_checked?: boolean;
  /**
   * The holder's name the platform's check found in the document's text before the institution
   * confirmed it (kept from that verdict: the confirmation does not check a name of its own).
   */
  holder_name?: string;
  /**
   * False when the holder never asked: the institution issued the file over the holder's own record (a
   * program from before RecordAlreadyNamesHolder allowed it). Its word then covers the file only.
   */
  requested?: boolean;
}

export type VerificationDetails = VerdictDetails | RetryDetails | AwaitingConfirmationDetails | RevokedDetails | SupersededDetails | ConfirmedDetails;
export type VerificationDetailsKind = VerificationDetails['kind'];

type AnyKey = VerificationDetails extends infer U ? (U extends unknown ? keyof U : never) : never;
type FieldOf<K extends PropertyKey> = VerificationDetails extends infer U ? (U extends { [P in K]?: infer V } ? V : never) : never;

/**
 * As the API returns them (CertificateDto, PublicCertificateDto): one of the kinds above (`kind`
 * always set), typed for readers that probe a field without narrowing by kind first.
 */
export type VerificationDetailsDto = { [K in AnyKey]?: FieldOf<K> } & { [key: string]: unknown };

const KINDS: readonly VerificationDetailsKind[] = ['verdict', 'retry', 'awaiting_confirmation', 'revoked', 'superseded', 'confirmed'];

/** The kind of a details object, also of one stored before `kind` was written (by its fields). */
export function detailsKind(d: Record<string, unknown>): VerificationDetailsKind {
  if (typeof d.kind === 'string' && (KINDS as readonly string[]).includes(d.kind)) return d.kind as VerificationDetailsKind;
  if (d.retry && typeof d.retry === 'object') return 'retry';
  if (d.state === 'awaiting_confirmation') return 'awaiting_confirmation';
  if ('revoked_at' in d) return 'revoked';
  if ('superseded_at' in d) return 'superseded';
  if ('confirmed_at' in d) return 'confirmed';
  return 'verdict';
}

/**
 * Whether the claims a verified certificate shows (title, institution, program) were checked: the
 * platform's content check passed for them, or the institution confirmed them through the product's
 * own flow. An institution's confirmation made on chain only confirms the file, not what the holder
 * typed about it (details `claims_confirmed: false` and no passed content check). Verdicts recorded
 * before these flags existed were written only after a content check (or are demo data).
 */
export function claimsWereChecked(d: VerificationDetailsDto | null): boolean {
  if (!d) return true;
  if (d.kind === 'confirmed') return d.claims_confirmed === true || d.content_checked === true;
  if (d.kind === 'verdict') return d.content_checked !== false;
  return false;
}

/** Stored JSON text → details (null for none; text that is not JSON is a verdict's reason, as the seed once stored it). */
export function parseVerificationDetails(text: string | null): VerificationDetailsDto | null {
  if (!text) return null;
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch {
    return { kind: 'verdict', reason: text };
  }
  if (!d || typeof d !== 'object' || Array.isArray(d)) return { kind: 'verdict', reason: String(text) };
  const o = d as Record<string, unknown>;
  return { ...o, kind: detailsKind(o) } as VerificationDetailsDto;
}

/**
 * The holder's name a verified verdict found in the document's text, if the check looked for one; an
 * institution's confirmation keeps the name its earlier platform check found (ConfirmedDetails).
 */
export function checkedHolderName(d: VerificationDetailsDto | null): string | null {
  const checked = (d?.kind === 'verdict' && d.reason_code === 0) || d?.kind === 'confirmed';
  return checked && typeof d?.holder_name === 'string' && d.holder_name ? d.holder_name : null;
}

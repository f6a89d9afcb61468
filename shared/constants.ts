// Product constants shared by the server and the app (SEED-SPEC.md §9, PRODUCT.md).

// The seed's three, plus the two the chain can impose afterwards: revoked (by the issuer or the
// operator) and superseded (the institution issued the same file to its rightful holder).
export const CERTIFICATE_STATUSES = ['pending', 'verified', 'rejected', 'revoked', 'superseded'] as const;
export type CertificateStatusName = (typeof CERTIFICATE_STATUSES)[number];

export const VERIFICATION_STEPS = ['hash_verification', 'document_checks', 'issuer_verification', 'chain_record'] as const;
export type VerificationStep = (typeof VERIFICATION_STEPS)[number];
export const LOG_STATUSES = ['success', 'pending', 'failed'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

export const TRUST_TIERS = ['none', 'platform_verified', 'issuer_confirmed'] as const;
export type TrustTierName = (typeof TRUST_TIERS)[number];

export const CERTIFICATE_FILE_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png', 'webp'] as const;
export const CERTIFICATE_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024;

export const DEMO_CERTIFICATE_IDS = ['cert-1', 'cert-2', 'cert-3'] as const;
export const DASHBOARD_RECENT_COUNT = 3;
export const STATUS_POLL_INTERVAL_MS = 10_000;

export const SIGN_IN_NONCE_TTL_MS = 5 * 60 * 1000;
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'attesta_session';

/** Messages the UI shows verbatim (SEED-SPEC.md §5, §8). */
export const MESSAGES = {
  titleRequired: 'Title is required',
  institutionRequired: 'Institution name is required',
  programRequired: 'Program name is required',
  issueDateRequired: 'Issue date is required',
  fileRequired: 'Certificate file is required',
  fullNameRequired: 'Full name is required',
  invalidEmail: 'Please enter a valid email address',
  rejectedFallback: 'This certificate could not be verified.',
  certificateNotFound: 'Certificate Not Found',
  verificationIdNotFound:
    "We couldn't find a certificate with the ID you provided. Please check the ID and try again",
  alreadyRegisteredByOther: 'This certificate file has already been registered by another wallet.',
  alreadyAdded: 'You have already added this certificate file.',
  /** Certificate creation without a profile name: the document check looks for the holder's name. */
  profileNameRequired: 'Add your full name on the Profile page before adding a certificate: the check looks for it in the document.',
  signatureMismatch: 'Signature does not match the address',
  signInExpired: 'This sign-in request has expired. Please try again.',
  signInUsed: 'This sign-in request was already used.',
  signInUnknown: 'This sign-in request is not known. Please try again.',
  signInMessageMismatch: 'The signed message does not match the sign-in request.',
  notSignedIn: 'Please connect your wallet to continue.',
} as const;

/** The program's longest Issuer name, in UTF-8 bytes (programs/certificates SPEC.md; shared/program/codec.ts re-exports it). */
export const MAX_ISSUER_NAME = 64;

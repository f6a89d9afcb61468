import { PublicKey } from '@solana/web3.js';
import { eventDiscriminator } from './discriminators';

// Decoders for the program's events without Anchor: `sol_log_data(sha256("event:<Name>")[..8] ++
// borsh)`, which shows in a transaction's logs as `Program data: <base64>`. Layouts are SPEC.md's
// (## Events); tests/program/events.test.ts checks them against Anchor's coder on both runtimes.

/** The holder asked `issuer` (an issuer authority) to confirm the certificate. */
export interface ConfirmationRequestedEvent {
  certificate: PublicKey;
  hash: Uint8Array;
  holder: PublicKey;
  issuer: PublicKey;
}

/** `issue_certificate` rewrote an existing record for `holder`; emitted before its CertificateAnchored. */
export interface CertificateSupersededEvent {
  certificate: PublicKey;
  hash: Uint8Array;
  previousHolder: PublicKey;
  holder: PublicKey;
  /** The issuer authority that issued over the record. */
  issuer: PublicKey;
}

export type CertificateEvent =
  | { name: 'ConfirmationRequested'; data: ConfirmationRequestedEvent }
  | { name: 'CertificateSuperseded'; data: CertificateSupersededEvent };

export const CONFIRMATION_REQUESTED_DISCRIMINATOR = eventDiscriminator('ConfirmationRequested');
export const CERTIFICATE_SUPERSEDED_DISCRIMINATOR = eventDiscriminator('CertificateSuperseded');

/** The body after `discriminator` when `bytes` is exactly that event of `len` bytes, else null. */
function body(bytes: Uint8Array, discriminator: Uint8Array, len: number): Uint8Array | null {
  if (bytes.length !== len) return null;
  for (let i = 0; i < 8; i++) if (bytes[i] !== discriminator[i]) return null;
  return bytes.subarray(8);
}
const key = (b: Uint8Array, at: number) => new PublicKey(b.subarray(at, at + 32));
const bytes32 = (b: Uint8Array, at: number) => Uint8Array.from(b.subarray(at, at + 32));
// atob exists in browsers and Node ≥ 16, so the app can use this file without a Buffer polyfill.
const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** `ConfirmationRequested{certificate, hash, holder, issuer}` from the event bytes, or null. */
export function decodeConfirmationRequested(bytes: Uint8Array): ConfirmationRequestedEvent | null {
  const b = body(bytes, CONFIRMATION_REQUESTED_DISCRIMINATOR, 8 + 32 * 4);
  return b && { certificate: key(b, 0), hash: bytes32(b, 32), holder: key(b, 64), issuer: key(b, 96) };
}

/** `CertificateSuperseded{certificate, hash, previous_holder, holder, issuer}` from the event bytes, or null. */
export function decodeCertificateSuperseded(bytes: Uint8Array): CertificateSupersededEvent | null {
  const b = body(bytes, CERTIFICATE_SUPERSEDED_DISCRIMINATOR, 8 + 32 * 5);
  return b && { certificate: key(b, 0), hash: bytes32(b, 32), previousHolder: key(b, 64), holder: key(b, 96), issuer: key(b, 128) };
}

/** One event's bytes → the events decoded here, or null for any other data. */
export function decodeCertificateEvent(bytes: Uint8Array): CertificateEvent | null {
  const requested = decodeConfirmationRequested(bytes);
  if (requested) return { name: 'ConfirmationRequested', data: requested };
  const superseded = decodeCertificateSuperseded(bytes);
  if (superseded) return { name: 'CertificateSuperseded', data: superseded };
  return null;
}

/**
 * The decodable events of a transaction, in log order, from its `Program data:` lines. With
 * `programId`, only data logged while that program was the one executing (not by programs it or
 * others invoked) counts.
 */
export function certificateEventsFromLogs(logs: readonly string[], programId?: PublicKey): CertificateEvent[] {
  const ours = programId?.toBase58();
  const stack: string[] = [];
  const out: CertificateEvent[] = [];
  for (const line of logs) {
    const invoke = /^Program (\w+) invoke \[\d+\]$/.exec(line);
    if (invoke) {
      stack.push(invoke[1]);
      continue;
    }
    if (/^Program \w+ (success|failed: .*)$/.test(line)) {
      stack.pop();
      continue;
    }
    const data = /^Program data: (.+)$/.exec(line);
    if (!data || (ours !== undefined && stack[stack.length - 1] !== ours)) continue;
    const ev = decodeCertificateEvent(fromBase64(data[1]));
    if (ev) out.push(ev);
  }
  return out;
}

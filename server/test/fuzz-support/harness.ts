// The fuzz tests' server, actors and wire helpers: a real server on a temporary data dir, two
// signed-in holders with certificates, and fetch with a timeout so a hung request fails the property.
import fs from 'node:fs';
import { expect } from 'vitest';
import type { Server } from '../../src/app';
import { makeClient, makeImage, makePdf, newWallet, signIn, startTestServer, tmpDataDir, waitFor } from '../helpers';
import type { FileBytes, FormEntry } from './arbitraries';
import { diffSnapshots, snapshot, type Snapshot } from './snapshot';

export const REQUEST_TIMEOUT_MS = 15_000;

/** A keep-alive socket the server closed after answering (e.g. 431 on oversized headers): not a server fault. */
const staleSocket = (e: unknown) => /other side closed|ECONNRESET/.test(String((e as { cause?: unknown })?.cause ?? ''));

/** fetch that fails (instead of hanging the property) when the server does not answer in time. */
export async function fetchT(url: string, init: RequestInit = {}, ms = REQUEST_TIMEOUT_MS, retried = false): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: init.signal ?? AbortSignal.timeout(ms) });
  } catch (e) {
    const name = (e as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new Error(`hung request: ${init.method ?? 'GET'} ${url.slice(0, 200)} (no answer in ${ms} ms)`);
    // Retried once: a server that died would fail the retry too. (Stream bodies cannot be resent.)
    if (!retried && staleSocket(e) && !(init.body instanceof ReadableStream)) return fetchT(url, init, ms, true);
    throw e;
  }
}

export const claimsFor = (tag: string) => ({
  title: `Bachelor of Science ${tag}`,
  institution_name: 'Northwind University',
  program_name: 'Computer Science',
  issue_date: '2024-05-01',
});
const pdfFor = (c: ReturnType<typeof claimsFor>) => makePdf([c.institution_name, c.title, c.program_name, 'awarded to Test Holder']);

export type Actor = Awaited<ReturnType<typeof makeActor>>;

async function makeActor(url: string, wallet = newWallet()) {
  const c = makeClient(url);
  const { user } = await signIn(c, wallet);
  return {
    ...c,
    wallet,
    user,
    cookie: () => [...c.jar].map(([k, v]) => `${k}=${v}`).join('; '),
    /** Signs in again when a fuzzed call ended the session (auth.signOut). */
    async ensureSignedIn() {
      const me = await c.client.auth.me.query().catch((e) => (staleSocket(e.cause ?? e) ? c.client.auth.me.query() : Promise.reject(e)));
      if (!me) await signIn(c, wallet);
    },
  };
}

export interface Fixture {
  server: Server;
  dir: string;
  url: string;
  a: Actor;
  b: Actor;
  /** A's verified certificate and its stored bytes. */
  aCert: { id: string; sha256: string; bytes: Uint8Array };
  /** A's rejected certificate (claims not in the PDF). */
  aRejected: { id: string };
  /** B's verified certificate. */
  bCert: { id: string; sha256: string; bytes: Uint8Array };
  aKey: { id: string; key: string };
  bKey: { id: string; key: string };
  close(): Promise<void>;
}

export async function createCert(actor: Actor, claims: ReturnType<typeof claimsFor>, bytes?: Uint8Array) {
  const pdf = bytes ?? (await pdfFor(claims));
  const fd = new FormData();
  for (const [k, v] of Object.entries(claims)) fd.set(k, v);
  fd.set('certificate_file', new File([pdf as BlobPart], 'certificate.pdf', { type: 'application/pdf' }));
  const c = await actor.client.certificate.create.mutate(fd);
  return { id: c.id, sha256: c.sha256, bytes: pdf };
}

export async function startFuzzServer(): Promise<Fixture> {
  const dir = tmpDataDir();
  // TRUST_PROXY: the fuzz sends a random X-Forwarded-For so the per-IP limits of support.* and the
  // REST API do not turn every later call into a 429; the per-key and per-wallet limits are lifted
  // for the same reason (fuzzed sign-outs make A sign in again; every accepted certificate.create and
  // POST /api/v1/certificates is A's or B's, FC_RUNS of them per procedure; so is every re-run). Those
  // limits have their own tests (sign-in-limits, rest-rate-limit, creation-limits, attack-rerun-pace).
  // A is also an operator (the console's procedures are fuzzed on their happy path too); the
  // institution actions' per-wallet limit is lifted like the others.
  const aWallet = newWallet();
  const server = await startTestServer(dir, {
    ATTESTA_OPERATOR_WALLETS: aWallet.address,
    INSTITUTION_RATE_LIMIT_PER_WALLET: '1000000',
    TRUST_PROXY: 'true',
    API_RATE_LIMIT_PER_MIN: '1000000',
    SIGN_IN_RATE_LIMIT_PER_WALLET: '1000000',
    SIGN_IN_RATE_LIMIT_PER_IP: '1000000',
    CERTIFICATE_RATE_LIMIT_PER_WALLET: '1000000',
    CERTIFICATE_RATE_LIMIT_PER_IP: '1000000',
    ATTESTA_DAILY_ANCHORS_PER_WALLET: '1000000',
    VERIFICATION_RERUN_RATE_LIMIT_PER_WALLET: '1000000',
    REFUSED_UPLOAD_LIMIT_PER_WALLET: '1000000',
    REFUSED_UPLOAD_LIMIT_PER_IP: '1000000',
  });
  const url = server.url;
  const a = await makeActor(url, aWallet);
  const b = await makeActor(url);
  const aCert = await createCert(a, claimsFor('A'));
  const bCert = await createCert(b, claimsFor('B'));
  const wrong = claimsFor('R');
  const aRejected = await createCert(a, { ...wrong, title: 'Doctor of Astrology' }, await pdfFor(wrong));
  const status = async (actor: Actor, id: string) => (await actor.client.certificate.byId.query({ id })).verification_status;
  await waitFor(async () => (await status(a, aCert.id)) === 'verified' && (await status(b, bCert.id)) === 'verified' && (await status(a, aRejected.id)) === 'rejected', 60_000);
  const photo = new FormData();
  photo.set('photo', new File([(await makeImage('png', 32, 32)) as BlobPart], 'me.png', { type: 'image/png' }));
  await a.client.profile.uploadPhoto.mutate(photo);
  const aKey = await a.client.apiKeys.create.mutate({ name: 'fuzz A' });
  const bKey = await b.client.apiKeys.create.mutate({ name: 'fuzz B' });
  return {
    server,
    dir,
    url,
    a,
    b,
    aCert,
    aRejected,
    bCert,
    aKey: { id: aKey.api_key.id, key: aKey.key },
    bKey: { id: bKey.api_key.id, key: bKey.key },
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** No verification work in flight: background writes must not be blamed on the next call. */
export async function settle(f: Fixture) {
  await waitFor(
    async () => {
      const busy = await f.server.services.db.selectFrom('verification_job').select('id').where('status', 'in', ['queued', 'running']).executeTakeFirst();
      return !busy;
    },
    60_000,
    20,
  );
}

export const snap = (f: Fixture) => snapshot(f.server.services.db, f.server.services.config.dataDir);

/** Asserts a rejected call left every table and every stored file as it was. */
export async function expectNoWrite(f: Fixture, before: Snapshot, what: string) {
  const diff = diffSnapshots(before, await snap(f));
  expect(diff, `rejected call wrote: ${what}`).toEqual([]);
}

/** Makes the bytes of a fuzzed file (fresh valid documents are unique, so never a duplicate by accident). */
export async function materialize(f: Fixture, b: FileBytes): Promise<Uint8Array> {
  if (b.kind === 'pdf') return pdfFor(claimsFor(Math.random().toString(36).slice(2)));
  if (b.kind === 'png') return makeImage('png', 64, 48);
  if (b.kind === 'dup') return b.which === 'own' ? f.aCert.bytes : f.bCert.bytes;
  return b.bytes;
}

export async function buildForm(f: Fixture, entries: FormEntry[]): Promise<FormData> {
  const fd = new FormData();
  for (const [name, v] of entries) {
    if (typeof v === 'string') fd.append(name, v);
    else fd.append(name, new File([(await materialize(f, v.file)) as BlobPart], v.filename, { type: v.type }));
  }
  return fd;
}

/** encodeURIComponent that survives lone surrogates (which no URL can carry: sent as U+FFFD). */
export const enc = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** A random client address (see TRUST_PROXY above). */
export const randomIp = () => `10.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}`;

/** Prototype pollution would show in this process: the server runs in it. */
export function expectPrototypeClean() {
  const probe = {} as Record<string, unknown>;
  expect(probe.polluted, 'Object.prototype was polluted').toBeUndefined();
  expect(probe.isAdmin, 'Object.prototype was polluted').toBeUndefined();
  expect(typeof probe.toString).toBe('function');
}

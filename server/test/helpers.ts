import fs from 'node:fs';
import { afterAll, expect } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpBatchLink, httpLink, httpSubscriptionLink, isNonJsonSerializable, splitLink } from '@trpc/client';
import { EventSource } from 'eventsource';
import nacl from 'tweetnacl';
import bs58 from 'bs58';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { loadConfig } from '../src/config';
import { startServer, type Server } from '../src/app';
import type { AppRouter } from '../src/router';
import { testDatabaseEnv } from './pg/database';

const madeDirs: string[] = [];
/** A data directory of its own; under vitest it is removed when the test file ends (its servers closed by then). */
export const tmpDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attesta-test-'));
  madeDirs.push(dir);
  return dir;
};
// Registered while the importing file is collected, so it runs after that file's own afterAll hooks
// (vitest runs them in reverse). Outside a test file's collection (a bench, a server in a child
// process) there is no suite to register with: those callers clean up themselves.
try {
  afterAll(() => {
    for (const dir of madeDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });
} catch {
  /* not collected by vitest */
}

/** A server on `dataDir`, on SQLite or (in the server-postgres project) on a PostgreSQL database of its own. */
export async function startTestServer(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  return startServer(await testConfig(dataDir, { PORT: '0', HOST: '127.0.0.1', ATTESTA_DEMO_DATA: 'false', ...env }));
}

/** The config a test server on `dataDir` runs with, including the database of the current test project. */
export async function testConfig(dataDir: string, env: Record<string, string> = {}) {
  // The suite starts hundreds of servers, most of which read no document: a reader is started by the
  // first document, not kept warm (reader-warm.test.ts and the browser tests keep the default).
  return loadConfig({ ATTESTA_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ATTESTA_DOCUMENT_READER_WARM: 'false', ...(await testDatabaseEnv(dataDir)), ...env });
}

/** A tRPC client over real HTTP with its own cookie jar (one per simulated browser). */
export function makeClient(baseUrl: string) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const f = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (jar.size) headers.set('cookie', cookieHeader());
    const res = await fetch(input, { ...init, headers });
    for (const sc of res.headers.getSetCookie()) {
      const [pair, ...attrs] = sc.split(';');
      const [name, ...rest] = pair.split('=');
      const value = rest.join('=');
      const expired = attrs.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()) || attrs.some((a) => /^\s*max-age=0/i.test(a));
      if (!value || expired) jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    return res;
  };
  const url = `${baseUrl}/trpc`;
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url, EventSource, eventSourceOptions: () => ({ fetch: f }) as never }),
        false: splitLink({
          condition: (op) => isNonJsonSerializable(op.input),
          true: httpLink({ url, fetch: f as typeof fetch }),
          false: httpBatchLink({ url, fetch: f as typeof fetch }),
        }),
      }),
    ],
  });
  return { client, jar, fetch: f };
}

export function newWallet() {
  const kp = nacl.sign.keyPair();
  return { address: bs58.encode(kp.publicKey), secretKey: kp.secretKey, sign: (msg: string) => bs58.encode(nacl.sign.detached(new TextEncoder().encode(msg), kp.secretKey)) };
}

/** The profile name `signIn` gives a test holder; `makePdf` writes it on every certificate it makes. */
export const TEST_HOLDER_NAME = 'Alex Tester';

/**
 * Signs a wallet in and, as a holder does before adding a certificate, sets its profile name
 * (`name: null` leaves the new user without one).
 */
export async function signIn(c: ReturnType<typeof makeClient>, wallet = newWallet(), opts: { name?: string | null } = {}) {
  const { message } = await c.client.auth.nonce.mutate({ address: wallet.address });
  let { user } = await c.client.auth.signIn.mutate({ address: wallet.address, message, signature: wallet.sign(message) });
  const name = opts.name === undefined ? TEST_HOLDER_NAME : opts.name;
  if (name !== null && user.full_name !== name) user = { ...user, ...(await c.client.profile.update.mutate({ full_name: name })) };
  return { wallet, user };
}

/**
 * Gives `wallet`'s user a profile name as the web app does (signed in on its own session): for tests
 * whose holder otherwise signs in elsewhere (REST connect, raw tRPC requests).
 */
export async function nameWallet(baseUrl: string, wallet: ReturnType<typeof newWallet>, name = TEST_HOLDER_NAME) {
  await signIn(makeClient(baseUrl), wallet, { name });
}

/** A one-page certificate PDF with `lines`, awarded to `holder` (the test holder by default), plus a unique reference. */
export async function makePdf(lines: string[], opts: { extra?: string; holder?: string } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([842, 595]);
  let y = 520;
  for (const l of [...lines, opts.extra ?? `Awarded to ${opts.holder ?? TEST_HOLDER_NAME}, ref ${Math.random().toString(36).slice(2)}`]) {
    page.drawText(l, { x: 60, y, size: 20, font });
    y -= 40;
  }
  return doc.save();
}

const rnd = () => Math.floor(Math.random() * 256);
export async function makeImage(kind: 'png' | 'webp' | 'jpeg' | 'gif', width = 320, height = 200): Promise<Uint8Array> {
  const img = sharp({ create: { width, height, channels: 3, background: { r: rnd(), g: rnd(), b: rnd() } } });
  const out = kind === 'png' ? img.png() : kind === 'webp' ? img.webp() : kind === 'gif' ? img.gif() : img.jpeg();
  return new Uint8Array(await out.toBuffer());
}

export function certForm(fields: Partial<Record<'title' | 'institution_name' | 'program_name' | 'issue_date', string>>, file?: { bytes: Uint8Array; name: string; type?: string }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) fd.set(k, v);
  if (file) fd.set('certificate_file', new File([file.bytes as BlobPart], file.name, { type: file.type ?? 'application/octet-stream' }));
  return fd;
}

export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Everything the server could have written for certificates: rows, blobs and chain records. */
export async function footprint(s: Server) {
  const db = s.services.db;
  const count = async (t: 'certificate' | 'verification_job' | 'verification_log' | 'chain_transaction') =>
    Number((await db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const blobDir = path.join(s.services.config.dataDir, 'uploads');
  const files = (dir: string): string[] =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [e.name])) : [];
  const registry = await s.services.chain.readRegistry();
  return {
    certificates: await count('certificate'),
    jobs: await count('verification_job'),
    logs: await count('verification_log'),
    chainTxs: await count('chain_transaction'),
    blobs: files(blobDir).length,
    chainCertificates: Number(registry?.certificateCount ?? -1n),
  };
}

/** A tRPC refusal as the client sees it: its code, and its message when one is given (a pattern). */
export const refusal = (code: string, message?: RegExp) => ({ data: expect.objectContaining({ code }), ...(message ? { message: expect.stringMatching(message) } : {}) });

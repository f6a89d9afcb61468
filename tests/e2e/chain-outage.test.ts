// A chain outage as the holder sees it, in a real browser. Server A runs the embedded chain and serves
// it as Solana JSON-RPC at /rpc; server B (the real `npm start` entry, like A) runs in RPC mode against
// A's /rpc through a proxy that can drop every connection (server/test/chain-rpc-support/proxy.ts).
// The holder adds a certificate on B (the anchor lands), the proxy goes down after the pipeline's first
// step and before its next chain read, and the detail page must say what is wrong and that it retries — not spin silently. When
// the proxy is back the page turns verified live (its badge: "Checked by Attesta only", as its public
// verdict reads), and exactly one verdict transaction reached the chain.
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CertificateStatus, decodeCertificate, fromHex } from '../../shared/program/codec';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { certificatePda } from '../../shared/program/pda';
import { startFlakyRpc } from '../../server/test/chain-rpc-support/proxy';
import { startServer, type RunningServer } from './helpers/server';
import { screenshot, watchErrors } from './helpers/browser';
import { describeE2E } from './helpers/e2e';
import { fillCertificateForm } from './helpers/forms';
import { certificatePdf, tempDir, type CertificateClaims } from './helpers/fixtures';
import { visible } from './helpers/pw';

// Generous: a loaded 2-core machine runs three Node processes and Chromium here.
const WAIT_MS = 60_000;

const claims: CertificateClaims = {
  title: 'Master of Engineering',
  institution_name: 'Northfield Institute of Technology',
  program_name: 'Structural Engineering',
  issue_date: new Date().toISOString().slice(0, 10),
  holder: 'Grace Hopper',
};

const RETRYING = /^The Solana network is not reachable; retrying automatically \(attempt [2-5] of 5\) at \d\d:\d\d:\d\d UTC\.$/;

// Server A is the fixture's (embedded chain); B and the proxy in front of A's /rpc are this suite's.
describeE2E('chain outage during verification (server on an RPC chain)', {}, (e2e) => {
  let b: RunningServer | undefined;
  let proxy: Awaited<ReturnType<typeof startFlakyRpc>> | undefined;
  let page: Page;
  let errors: string[];
  let filesDir = '';
  let pdfPath = '';
  let cookie = '';

  /** tRPC over plain HTTP as the holder (no transformer: JSON in, `result.data` out). */
  async function call(proc: string, input: unknown, method: 'GET' | 'POST' = 'GET') {
    const url = method === 'GET' ? `${b!.url}/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}` : `${b!.url}/trpc/${proc}`;
    const headers: Record<string, string> = cookie ? { cookie } : {};
    if (method === 'POST') headers['content-type'] = 'application/json';
    const res = await fetch(url, { method, headers, body: method === 'POST' ? JSON.stringify(input) : undefined });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('attesta_session='));
    if (set) cookie = set.split(';')[0];
    const json = (await res.json()) as { result?: { data: unknown } };
    if (!res.ok) throw new Error(`${proc}: ${res.status} ${JSON.stringify(json)}`);
    return json.result!.data as any;
  }

  beforeAll(async () => {
    const a = e2e.server;
    proxy = await startFlakyRpc(`${a.url}/rpc`);
    b = await startServer({
      SOLANA_RPC_URL: proxy.url,
      CERTIFICATES_PROGRAM_ID: CERTIFICATES_PROGRAM_ID.toBase58(),
      // A's operator: registry admin, verifier and funded fee payer on A's chain.
      OPERATOR_KEYPAIR_PATH: path.join(a.dataDir, 'operator.json'),
      // Each pipeline step waits first: room to take the RPC down between steps.
      ATTESTA_TEST_STEP_DELAY_MS: '2500',
    });
    expect(await (await fetch(`${b.url}/healthz`)).json()).toMatchObject({ chain: 'rpc' });

    filesDir = tempDir();
    pdfPath = path.join(filesDir, 'master-of-engineering.pdf');
    fs.writeFileSync(pdfPath, await certificatePdf(claims));

    // B is not on a local chain, so the app offers no development wallet: the holder signs in with
    // a keypair here (the same wallet signature the app would send) and the browser gets the cookie.
    const wallet = nacl.sign.keyPair();
    const address = bs58.encode(wallet.publicKey);
    const { message } = await call('auth.nonce', { address }, 'POST');
    const signature = bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), wallet.secretKey));
    await call('auth.signIn', { address, message, signature }, 'POST');
    expect(cookie).toMatch(/^attesta_session=./);
    await call('profile.update', { full_name: claims.holder }, 'POST');

    page = await e2e.page({ baseURL: b.url, session: cookie.slice('attesta_session='.length) });
    errors = watchErrors(page);
  }, 240_000);

  afterAll(async () => {
    if (proxy) proxy.state.down = false; // let B finish in-flight work quietly
    await b?.stop().catch(() => {});
    await proxy?.close().catch(() => {});
    if (filesDir) fs.rmSync(filesDir, { recursive: true, force: true });
  });

  it('shows the holder that the chain is unreachable and retrying, then turns verified (checked by Attesta only) with one verdict on chain', { timeout: 180_000 }, async () => {
    const failMsg = () => `\n--- server B output ---\n${b!.output().slice(-4000)}`;
    const pending = page.getByTestId('pending-status');
    const badge = (text: string) => page.locator('main').getByText(text, { exact: true }).first();

    await fillCertificateForm(page, claims, pdfPath, { submit: false });

    // In RPC mode the anchor transaction is sent and confirmed inside certificate.create: the RPC
    // must be up for it, and for the pipeline's first step (it reads the anchor back). Once that step
    // is logged the RPC goes down; the next chain read comes a step delay later (issuer_verification).
    const created = page.waitForResponse((r) => r.url().includes('/trpc/certificate.create') && r.request().method() === 'POST', { timeout: WAIT_MS });
    await page.getByRole('button', { name: 'Create Certificate' }).click();
    const createRes = await created;
    expect(createRes.status(), failMsg()).toBe(200);
    const id = ((await createRes.json()) as { result: { data: { id: string } } }).result.data.id;
    type Log = { id: string; verification_step: string; status: string; details: { signature?: string } };
    const logsOf = async () => (await call('certificate.logs', { id })) as Log[];
    let before: Log[] = [];
    await expect
      .poll(async () => (before = await logsOf()).map((l) => l.verification_step), { timeout: WAIT_MS, interval: 25, message: `hash_verification logged${failMsg()}` })
      .toContain('hash_verification');
    proxy!.state.down = true;
    expect(before.map((l) => l.verification_step)).not.toContain('chain_record'); // the verdict was not reached yet
    proxy!.state.landed.clear(); // the anchor; from here on only verdicts count

    await page.waitForURL(new RegExp(`/certificates/${id}$`), { timeout: WAIT_MS });

    // The holder is told what is wrong and that it retries by itself — not a bare "in progress" spinner.
    await visible(badge('Pending'), WAIT_MS);
    await expect
      .poll(async () => ((await pending.count()) ? (await pending.innerText()).trim() : '(no pending status)'), { timeout: WAIT_MS, message: `retry notice on the page${failMsg()}` })
      .toMatch(RETRYING);
    const shown = (await pending.innerText()).trim();
    expect(shown).not.toContain('Verification in progress');
    expect(await badge('Checked by Attesta only').count()).toBe(0);
    await screenshot(page, 'chain-outage-retrying');
    // The server agrees: still pending, a retry notice, nothing sent to the chain while it was down.
    const during = await call('certificate.byId', { id });
    expect(during.verification_status).toBe('pending');
    expect(during.verification_details).toMatchObject({ retry: { state: 'retrying', problem: 'network_unreachable', max_attempts: 5 } });
    expect(proxy!.state.landed.size).toBe(0);

    // The RPC is back: the next automatic attempt (at most 16 s away) records the verdict and the
    // open page turns verified by itself (live status or its polling; no reload, no click).
    proxy!.state.down = false;
    // Checked by the platform: its badge reads as its public verdict does, never "Verified".
    await visible(badge('Checked by Attesta only'), 90_000).catch((e) => {
      throw new Error(`page did not turn verified (Checked by Attesta only); pending-status: ${shown}${failMsg()}`, { cause: e });
    });
    await expect.poll(() => pending.count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => page.getByText(RETRYING).count(), { timeout: 15_000 }).toBe(0);
    await screenshot(page, 'chain-outage-recovered');

    // Exactly one verdict: one chain_record log entry (the retry reused the steps logged before the
    // outage), one record_verification transaction forwarded to the chain, and A's chain says verified.
    const done = await call('certificate.byId', { id });
    expect(done.verification_status).toBe('verified');
    expect(done.verification_details?.retry).toBeUndefined();
    const logs = await logsOf();
    const steps = logs.map((l) => l.verification_step);
    expect(steps.filter((s) => s === 'chain_record')).toHaveLength(1);
    expect([...steps].sort()).toEqual(['chain_record', 'document_checks', 'hash_verification', 'issuer_verification']);
    // The hash step logged before the outage is the one kept: the retry resumed, it did not start over.
    expect(logs.find((l) => l.verification_step === 'hash_verification')!.id).toBe(before.find((l) => l.verification_step === 'hash_verification')!.id);
    const record = logs.find((l) => l.verification_step === 'chain_record')!;
    expect(record.status).toBe('success');
    expect(record.details.signature).toBeTruthy();
    expect([...proxy!.state.landed]).toEqual([record.details.signature]);
    expect(done.verification_details?.signature).toBe(record.details.signature);

    const onA = await new Connection(`${e2e.server.url}/rpc`, 'confirmed').getAccountInfo(certificatePda(fromHex(done.sha256))[0]);
    expect(onA).not.toBeNull();
    expect(decodeCertificate(new Uint8Array(onA!.data)).status).toBe(CertificateStatus.Verified);

    expect(errors).toEqual([]);
  });
});

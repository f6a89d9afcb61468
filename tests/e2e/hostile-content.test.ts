// Scripts in titles and names stay text: a certificate whose title, institution and program and a
// profile whose name are XSS payloads, shown in a real browser on every page that renders them
// (dashboard, list, detail, public view, verification result, a dropped file's name). Nothing runs
// (no window.__pwned, no dialog, no request to the payload's URL, no CSP violation) and the payload
// text is shown literally. The server never reflects them into HTML either.
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { watchErrors } from './helpers/browser';
import { describeE2E } from './helpers/e2e';
import { signInWithDevWallet } from './helpers/wallet';
import { certificatePdf } from './helpers/fixtures';
import { visible } from './helpers/pw';

const PAYLOADS = {
  title: '<img src=x onerror="window.__pwned=1;alert(1)"> Diploma',
  institution_name: '"><svg onload="window.__pwned=2"> Institute',
  program_name: 'javascript:window.__pwned=3//',
  full_name: '<script>window.__pwned=4</script>',
};
const DROPPED_NAME = '<img src=y onerror="window.__pwned=5">.pdf';

declare global {
  interface Window {
    __pwned?: unknown;
    __csp?: string[];
  }
}

describeE2E('hostile content is rendered inert', {}, (e2e) => {
  let page: Page;
  let errors: string[];
  const dialogs: string[] = [];
  const payloadRequests: string[] = [];
  const cspConsole: string[] = [];
  let certId = '';
  let userId = '';
  let pdf: Uint8Array;
  const wallet = Keypair.generate();

  /** tRPC over plain fetch with this holder's session cookie (no Origin: a non-browser client). */
  let cookie = '';
  async function call(proc: string, input: unknown, method: 'GET' | 'POST' = 'POST') {
    const { url: base } = e2e.server;
    const url = method === 'GET' ? `${base}/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}` : `${base}/trpc/${proc}`;
    const body = input instanceof FormData ? input : method === 'POST' ? JSON.stringify(input) : undefined;
    const headers: Record<string, string> = cookie ? { cookie } : {};
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    const res = await fetch(url, { method, headers, body });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0];
    const json = await res.json();
    if (!res.ok) throw new Error(`${proc}: ${res.status} ${JSON.stringify(json)}`);
    return json.result.data;
  }

  beforeAll(async () => {
    // The holder's data goes in through the API as an attacker would send it (the form would allow it too).
    const address = wallet.publicKey.toBase58();
    const { message } = await call('auth.nonce', { address });
    const signature = bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), wallet.secretKey));
    userId = (await call('auth.signIn', { address, message, signature })).user.id;
    await call('profile.update', { full_name: PAYLOADS.full_name, email: 'holder@example.com' });
    const { full_name, ...claims } = PAYLOADS;
    pdf = await certificatePdf({ ...claims, issue_date: '2025-06-01', holder: full_name });
    const fd = new FormData();
    for (const [k, v] of Object.entries({ ...claims, issue_date: '2025-06-01' })) fd.set(k, v);
    fd.set('certificate_file', new File([pdf as BlobPart], 'payload.pdf', { type: 'application/pdf' }));
    certId = (await call('certificate.create', fd)).id;
    // Verified or rejected, the fields are shown the same; wait so the pages are in their final state.
    for (let i = 0; i < 240; i++) {
      if ((await call('certificate.byId', { id: certId }, 'GET')).verification_status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 250));
    }

    const context = await e2e.context({ devWallet: wallet });
    await context.addInitScript(() => {
      window.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__csp!.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    page = await context.newPage();
    errors = watchErrors(page);
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspConsole.push(m.text());
    });
    // <img src=x> / src=y parsed as HTML would fetch /x or /y from our origin.
    page.on('request', (r) => {
      if (/\/(x|y)$/.test(new URL(r.url()).pathname)) payloadRequests.push(r.url());
    });
  }, 120_000);

  async function assertInert(where: string) {
    // Give any handler a chance to run (image errors fire asynchronously).
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.__pwned), where).toBeUndefined();
    expect(dialogs, where).toEqual([]);
    expect(payloadRequests, where).toEqual([]);
    expect(await page.evaluate(() => window.__csp), where).toEqual([]);
    expect(cspConsole, where).toEqual([]);
    expect(errors, where).toEqual([]);
    // Nothing from a payload became an element.
    expect(await page.locator('svg[onload], img[onerror], a[href^="javascript:"]').count(), where).toBe(0);
    expect(await page.locator('script:not([src])').count(), where).toBe(0);
  }

  async function shows(text: string) {
    await expect.poll(() => page.locator('body').innerText(), { timeout: 15_000 }).toContain(text);
  }

  it('dashboard: the name and the title are text', async () => {
    await signInWithDevWallet(page);
    await shows(PAYLOADS.full_name);
    await shows(PAYLOADS.title);
    await assertInert('dashboard');
  });

  it('certificates list', async () => {
    await page.goto('/certificates');
    await shows(PAYLOADS.title);
    await shows(PAYLOADS.institution_name);
    await assertInert('list');
  });

  it('certificate detail', async () => {
    await page.goto(`/certificates/${certId}`);
    for (const v of [PAYLOADS.title, PAYLOADS.institution_name, PAYLOADS.program_name]) await shows(v);
    await assertInert('detail');
  });

  it('public view, with a dropped file whose name is a payload', async () => {
    await page.goto(`/view/${userId}/${certId}`);
    for (const v of [PAYLOADS.title, PAYLOADS.institution_name, PAYLOADS.program_name, PAYLOADS.full_name]) await shows(v);
    await page.locator('input[type=file]').first().setInputFiles({ name: DROPPED_NAME, mimeType: 'application/pdf', buffer: Buffer.from(pdf) });
    await visible(page.getByTestId('compare-result'), 20_000);
    await shows(DROPPED_NAME);
    await assertInert('public view');
  });

  it('verification result by id', async () => {
    await page.goto('/verification');
    const id = page.getByLabel('Certificate ID');
    await id.fill(certId);
    await id.press('Enter');
    await shows(PAYLOADS.title);
    await shows(PAYLOADS.institution_name);
    await assertInert('verification');
  });

  it('profile form holds the name as a value, not markup', async () => {
    await page.goto('/profile');
    await expect.poll(() => page.locator('#full_name').inputValue(), { timeout: 15_000 }).toBe(PAYLOADS.full_name);
    await assertInert('profile');
  });

  it('the server never reflects a payload into HTML (SPA fallback is the static index.html)', async () => {
    const index = await (await fetch(`${e2e.server.url}/`)).text();
    expect(index).toContain('<div id="root">');
    for (const p of [
      `/view/${encodeURIComponent(PAYLOADS.full_name)}/${certId}`,
      `/view/${userId}/${certId}`,
      `/certificates/${encodeURIComponent(PAYLOADS.title)}`,
      `/verification?id=${encodeURIComponent(PAYLOADS.institution_name)}`,
    ]) {
      const res = await fetch(`${e2e.server.url}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toMatch(/^text\/html/);
      expect(await res.text(), p).toBe(index);
    }
    // Data answers are JSON that a browser will not sniff into HTML.
    const res = await fetch(`${e2e.server.url}/trpc/public.view?input=${encodeURIComponent(JSON.stringify({ userId, certificateId: certId }))}`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await res.json()).result.data.title).toBe(PAYLOADS.title);
  });
});

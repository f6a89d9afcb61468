// Reload and revisit every kind of page with the browser's HTTP cache on, as a holder who refreshes
// and an employer who opens a shared link a second time do. A 304 that carried the resource CSP once
// turned every reload into a blank white page; request interception (which turns the cache off) hid it.
import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screenshot } from './helpers/browser';
import { describeE2E } from './helpers/e2e';
import { demoHolder, signInWithDevWallet } from './helpers/wallet';
import { visible } from './helpers/pw';

interface Seen {
  cspErrors: string[];
  revalidated: string[];
}

function watch(page: Page): Seen {
  const seen: Seen = { cspErrors: [], revalidated: [] };
  page.on('console', (m) => {
    if (/Content[- ]Security[- ]Policy|violates|Refused to/i.test(m.text())) seen.cspErrors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => seen.cspErrors.push(`${page.url()}: pageerror ${e.message}`));
  page.on('requestfinished', async (req) => {
    const h = await req.allHeaders().catch(() => ({}) as Record<string, string>);
    if (req.resourceType() === 'document' && (h['if-none-match'] || h['if-modified-since'])) seen.revalidated.push(req.url());
  });
  return seen;
}

/** The page rendered: its own heading or text, not a blank root. */
async function rendered(page: Page, text: string | RegExp) {
  await visible(page.getByText(text));
  expect(await page.locator('#root').innerText()).not.toBe('');
}

const options = { env: { ATTESTA_DEMO_DATA: 'true', ATTESTA_WORKER: 'false' }, viewport: { width: 1280, height: 900 }, dismissDevNotice: true };

describeE2E('reload and revisit with the HTTP cache on', options, (e2e) => {
  let context: BrowserContext;

  beforeAll(async () => {
    context = await e2e.context();
  });

  it('signed out: every public page survives a reload, a back/forward and a second visit', async () => {
    const page = await context.newPage();
    const seen = watch(page);
    const pages: Array<[string, string | RegExp]> = [
      ['/', /Certificates anyone can/],
      ['/verification', 'Verify a Certificate'],
      ['/view/u_demo/cert-1', 'Bachelor of Science'],
      ['/faq', /Frequently Asked Questions|FAQ/],
      ['/login', 'Connect your wallet'],
      ['/api', /API/],
    ];
    for (const [path, text] of pages) {
      await page.goto(path);
      await rendered(page, text);
      await page.reload();
      await rendered(page, text);
    }
    // Back through the history (served from the cache) and a second visit by address.
    await page.goBack();
    await rendered(page, pages.at(-2)![1]);
    await page.goForward();
    await rendered(page, pages.at(-1)![1]);
    for (const [path, text] of pages) {
      await page.goto(path);
      await rendered(page, text);
    }
    await screenshot(page, 'revisit-public-view-second-visit').catch(() => undefined);
    // A lookup on /verification is in its address (?id=, ?hash=): a reload and Back keep it.
    const cert1 = new Uint8Array(await (await fetch(`${e2e.server.url}/files/certificates/cert-1?download=1`)).arrayBuffer());
    const hash = createHash('sha256').update(cert1).digest('hex');
    for (const path of ['/verification?id=cert-1', `/verification?hash=${hash}`]) {
      await page.goto(path);
      await visible(page.getByTestId('verdict'));
      await page.reload();
      await visible(page.getByTestId('verdict'));
      expect(await page.getByTestId('verdict').innerText()).toContain('Bachelor of Science');
    }
    await page.goBack();
    await visible(page.getByTestId('verdict'));
    expect(new URL(page.url()).search).toBe('?id=cert-1');
    await screenshot(page, 'revisit-verification-lookup-after-back').catch(() => undefined);
    expect(seen.revalidated.length).toBeGreaterThan(0); // the cache was really used
    expect(seen.cspErrors).toEqual([]);
    await page.close();
  }, 180_000);

  it('signed in: dashboard, list, detail and profile survive a reload and a second visit', async () => {
    const signedIn = await e2e.context({ devWallet: demoHolder(e2e.server) });
    const page = await signedIn.newPage();
    const seen = watch(page);
    await signInWithDevWallet(page);
    const pages: Array<[string, string | RegExp]> = [
      ['/dashboard', /Welcome/],
      ['/certificates', 'Data Analytics Diploma'],
      ['/certificates/cert-1', 'Bachelor of Science'],
      ['/profile', 'Your Profile'],
    ];
    for (const [path, text] of pages) {
      await page.goto(path);
      await rendered(page, text);
      await page.reload();
      await rendered(page, text);
    }
    for (const [path, text] of pages) {
      await page.goto(path);
      await rendered(page, text);
    }
    expect(seen.revalidated.length).toBeGreaterThan(0);
    expect(seen.cspErrors).toEqual([]);
    await signedIn.close();
  }, 180_000);
});

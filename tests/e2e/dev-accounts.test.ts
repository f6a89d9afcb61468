// A newcomer who ran `npm start` tries the three roles from the connect dialog (issue 14): the
// development wallet's named accounts of this installation (Holder, Institution, Operator), in a real
// browser against the real server with its demo data (embedded chain, HTTP cache on, a reload). Their
// keys come from the server (GET /api/dev/accounts, this machine only: server/test/attack-dev-accounts).
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations } from './helpers/axe';
import { screenshot, watchErrors } from './helpers/browser';
import { describeE2E } from './helpers/e2e';
import { visible } from './helpers/pw';
import { DEV_WALLET_NAME, demoHolder } from './helpers/wallet';
import { certificatePdf, tempDir } from './helpers/fixtures';
import { loadOrCreateDemoKeys } from '../../server/src/services/demo/keys';

const short = (a: string) => `${a.slice(0, 6)}...${a.slice(-4)}`;

describeE2E('development wallet: named local accounts in a real browser', { env: { ATTESTA_DEMO_DATA: 'true' }, dismissDevNotice: true }, (e2e) => {
  const errors: string[][] = [];
  const a11y: Record<string, unknown[]> = {};

  /** A fresh browser (no wallet key of its own yet): Connect Wallet on /login, the dialog open. */
  async function newcomer(): Promise<Page> {
    const page = await e2e.page();
    errors.push(watchErrors(page));
    await page.goto('/login');
    await page.getByRole('button', { name: 'Connect Wallet' }).first().click();
    await visible(page.getByRole('dialog'));
    return page;
  }

  /** Each account lands on its own page: the holder's dashboard, the institution's portal, the operator's console. */
  const LANDING = { Holder: '/dashboard', Institution: '/institution', Operator: '/operator' } as const;

  async function pick(page: Page, label: 'Holder' | 'Institution' | 'Operator') {
    const list = page.getByRole('list', { name: 'Local accounts' });
    await list.getByRole('button', { name: new RegExp(`^${label}\\b`) }).click();
    await page.waitForURL(`**${LANDING[label]}`);
  }

  const signedInAs = (page: Page) => page.locator('[data-sidebar="footer"]').first().innerText();

  it('the connect dialog offers Holder, Institution and Operator beside the wallet\'s own key', async () => {
    const page = await newcomer();
    const keys = loadOrCreateDemoKeys(e2e.server.dataDir);
    const list = page.getByRole('list', { name: 'Local accounts' });
    await visible(list);
    await expect(list.getByRole('button').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(new RegExp(`^Holder\\n.*Alex Demo.*${short(keys.holder.publicKey.toBase58()).replace(/\./g, '\\.')}`, 's')),
      expect.stringMatching(new RegExp(`^Institution\\n.*Attesta Demo University.*${short(keys.issuer.publicKey.toBase58()).replace(/\./g, '\\.')}`, 's')),
      expect.stringMatching(new RegExp(`^Operator\\n.*${short(keys.operator.publicKey.toBase58()).replace(/\./g, '\\.')}`, 's')),
    ]);
    await visible(page.getByRole('button', { name: new RegExp(DEV_WALLET_NAME) }));
    await screenshot(page, 'dev-accounts-01-dialog', { fullPage: false });
    a11y['dialog'] = await seriousViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.getByRole('dialog').evaluate((d) => d.scrollWidth - d.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'dev-accounts-02-dialog-phone', { fullPage: false });
    await page.context().close();
  });

  it('"Institution" lands as the approved demo institution in /institution, its domain honestly not proven, and can try issuing', async () => {
    const page = await newcomer();
    await pick(page, 'Institution');
    // It lands on its portal, not on a holder's empty dashboard.
    await visible(page.getByRole('heading', { name: 'Attesta Demo University', level: 1 }));
    expect(new URL(page.url()).pathname).toBe('/institution');
    expect(await page.getByText(/Welcome, |Add your first certificate/).count()).toBe(0);
    await expect.poll(() => page.getByTestId('issuer-status').first().getAttribute('data-status')).toBe('approved');
    await expect.poll(() => page.getByTestId('proof-status').first().textContent()).toBe('Not proven');
    await expect(page.getByTestId('issuer-status-text').innerText()).resolves.toMatch(/demo institution of this local installation.*may issue and confirm here.*domain is not proven/s);
    await visible(page.getByTestId('issued-row').filter({ hasText: 'Bachelor of Science' }));
    // A newcomer can try issuing: to the Holder account, signed by this account's key in the browser.
    const holder = loadOrCreateDemoKeys(e2e.server.dataDir).holder.publicKey.toBase58();
    const dir = tempDir();
    const file = path.join(dir, 'demo-issued.pdf');
    fs.writeFileSync(file, await certificatePdf({ title: 'Certificate of Attendance', institution_name: 'Attesta Demo University', program_name: 'Trying Attesta', issue_date: '2025-02-02', holder: 'Alex Demo' }));
    await page.getByLabel('Certificate title').fill('Certificate of Attendance');
    await page.getByLabel('Program', { exact: true }).fill('Trying Attesta');
    await page.getByLabel('Issue date').fill('2025-02-02');
    await page.getByLabel('Holder’s wallet address').fill(holder);
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByRole('button', { name: 'Issue certificate' }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Certificate Issued' }).first().waitFor({ timeout: 30_000 });
    const issued = page.getByTestId('issued-row').filter({ hasText: 'Certificate of Attendance' });
    await visible(issued);
    // Its badge in the portal is what a verifier reads (this institution's domain is not proven), not the row's "verified".
    await expect.poll(() => issued.getByTestId('status-badge').getAttribute('data-status'), { timeout: 15_000 }).toBe('domain_not_proven');
    expect(await page.getByText(/verified on record/).count()).toBeGreaterThan(0);
    fs.rmSync(dir, { recursive: true, force: true });
    // What a verifier reads: issued by the demo institution, its domain not proven.
    const href = await issued.getByRole('link', { name: /Public view/ }).getAttribute('href');
    const visitor = await e2e.page();
    await visitor.goto(href!);
    await expect.poll(() => visitor.getByTestId('verdict-note').first().textContent(), { timeout: 15_000 }).toMatch(/demo\.attesta\.example is not proven/);
    await visitor.context().close();
    expect(await page.getByRole('link', { name: 'Operator' }).count()).toBe(0);
    await screenshot(page, 'dev-accounts-03-institution');
    a11y['institution'] = await seriousViolations(page);
    await page.context().close();
  });

  it('"Operator" sees /operator: the demo institution approved without a proof, and the seed\'s audit entry', async () => {
    const page = await newcomer();
    await pick(page, 'Operator');
    // It lands on the console, not on a holder's empty dashboard.
    await visible(page.getByRole('heading', { name: 'Operator console', level: 1 }));
    expect(await page.getByText(/Welcome, |Add your first certificate/).count()).toBe(0);
    const row = page.getByTestId('issuer-row').filter({ hasText: 'Attesta Demo University' });
    await visible(row);
    await expect.poll(() => row.getByTestId('issuer-status').getAttribute('data-status')).toBe('approved');
    // What the portal tells the institution, the console says too: it may issue and confirm here.
    const unproven = row.getByTestId('approved-unproven');
    await visible(unproven);
    expect(await unproven.getAttribute('data-may-act')).toBe('true');
    expect(await unproven.innerText()).toMatch(/demo institution of this local installation.*may issue and confirm here/);
    expect(await unproven.innerText()).not.toMatch(/cannot issue or confirm/);
    await visible(page.getByTestId('audit-row').filter({ hasText: 'platform.demo_approve' }));
    await screenshot(page, 'dev-accounts-04-operator');
    a11y['operator'] = await seriousViolations(page);
    await page.context().close();
  });

  it('"Holder" sees the demo certificates, still signed in after a reload (HTTP cache on); logging out and picking "Operator" switches', async () => {
    const page = await newcomer();
    await pick(page, 'Holder');
    await visible(page.getByRole('heading', { name: /Welcome, Alex Demo/ }));
    await page.goto('/certificates');
    for (const title of ['Bachelor of Science', 'Cloud Practitioner Certificate', 'Data Analytics Diploma']) await visible(page.getByText(title).first());
    await page.reload();
    await visible(page.getByText('Data Analytics Diploma').first());
    await expect.poll(() => signedInAs(page)).toContain(short(demoHolder(e2e.server).publicKey.toBase58()));
    await screenshot(page, 'dev-accounts-05-holder');

    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL((u) => !/\/(dashboard|certificates)/.test(u.pathname));
    await page.goto('/login');
    await page.getByRole('button', { name: 'Connect Wallet' }).first().click();
    await pick(page, 'Operator');
    await visible(page.getByRole('link', { name: 'Operator' }));
    await expect.poll(() => signedInAs(page)).toContain(short(loadOrCreateDemoKeys(e2e.server.dataDir).operator.publicKey.toBase58()));
    await page.context().close();
  });

  it('the development wallet itself signs in with the browser\'s own key, a newcomer with no certificates', async () => {
    const page = await newcomer();
    await page.getByRole('button', { name: new RegExp(DEV_WALLET_NAME) }).click();
    await page.waitForURL('**/dashboard');
    const own = await page.evaluate(() => localStorage.getItem('attesta-dev-wallet'));
    expect(own).toBeTruthy();
    const text = await signedInAs(page);
    const keys = loadOrCreateDemoKeys(e2e.server.dataDir);
    for (const k of [keys.holder, keys.issuer, keys.operator]) expect(text).not.toContain(short(k.publicKey.toBase58()));
    await page.goto('/certificates');
    await visible(page.getByRole('heading', { level: 1 }));
    expect(await page.getByText('Bachelor of Science').count()).toBe(0);
    await page.context().close();
  });

  it('"Operator" suspends the demo institution: the Holder\'s cert-1 page says Not valid and why, with no QR code and no mint; the dashboard does not count it as verified', async () => {
    const holder = await newcomer();
    await pick(holder, 'Holder');
    // cert-2: pending, no run under way — no spinner pretending one is.
    await holder.goto('/certificates/cert-2');
    await expect.poll(() => holder.getByTestId('pending-status').textContent(), { timeout: 15_000 }).toBe('Not verified yet: use Check Status to start.');
    expect(await holder.getByText('Verification in progress').count()).toBe(0);
    // cert-1 before: valid; what was checked, its institution's domain honestly not proven (its badge
    // too, as on the public view); shareable, mintable.
    await holder.goto('/certificates/cert-1');
    const badge = holder.locator('main [data-testid=status-badge]').first();
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: 15_000 }).toBe('domain_not_proven');
    expect(await holder.getByTestId('holder-verdict').textContent()).toBe("Signed with Attesta Demo University's own key, but its domain demo.attesta.example is not proven.");
    await visible(holder.getByText('Anyone with the link can check'));
    await visible(holder.getByRole('button', { name: 'Mint as NFT' }));

    const operator = await newcomer();
    await pick(operator, 'Operator');
    await operator.goto('/operator');
    const row = operator.getByTestId('issuer-row').filter({ hasText: 'Attesta Demo University' });
    await row.getByRole('button', { name: 'Suspend Attesta Demo University' }).click();
    await operator.getByRole('dialog').getByRole('button', { name: 'Suspend institution' }).click();
    await operator.locator('[data-sonner-toast]').filter({ hasText: 'Institution Suspended' }).first().waitFor({ timeout: 30_000 });
    await expect.poll(() => row.getByTestId('issuer-status').getAttribute('data-status')).toBe('suspended');
    await operator.context().close();

    // After a reload (HTTP cache on): what a verifier reads — not valid, and why; nothing to share or mint.
    await holder.reload();
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: 15_000 }).toBe('not_valid');
    expect(await badge.innerText()).toBe('Not valid');
    expect(await holder.getByTestId('public-not-valid').innerText()).toContain("Attesta Demo University's registration is suspended.");
    expect(await holder.getByTestId('holder-verdict').textContent()).toBe("Signed with Attesta Demo University's own key, but its registration is suspended.");
    expect(await holder.locator('[data-testid=certificate-preview] svg').first().getAttribute('data-status')).toBe('not_valid');
    expect(await holder.getByText('Anyone with the link can check').count()).toBe(0);
    expect(await holder.getByText('Scan to verify this certificate').count()).toBe(0);
    expect(await holder.getByRole('button', { name: /Copy public link|Mint as NFT/ }).count()).toBe(0);
    await visible(holder.getByTestId('mint-not-valid'));
    expect(await holder.locator('main').getByText(/^Verified$/).count()).toBe(0); // nowhere, not even the attempt's badge
    await screenshot(holder, 'dev-accounts-06-holder-institution-suspended');
    a11y['holder-suspended'] = await seriousViolations(holder);

    // The public page agrees.
    const visitor = await e2e.page();
    await visitor.goto('/view/u_demo/cert-1');
    await expect.poll(() => visitor.getByTestId('verdict-summary').first().getAttribute('data-valid'), { timeout: 20_000 }).toBe('false');
    await visitor.context().close();

    // The dashboard counts it as not valid, never as verified.
    await holder.goto('/dashboard');
    await expect.poll(() => holder.getByTestId('stat-verified').textContent(), { timeout: 15_000 }).toBe('0');
    await expect.poll(() => holder.getByTestId('stat-not-valid').textContent()).toMatch(/^\d+ more (is|are) verified on record but not valid now$/);
    await visible(holder.getByRole('img', { name: 'Not valid' }).first());
    await screenshot(holder, 'dev-accounts-07-dashboard-institution-suspended');
    await holder.context().close();
  });

  it('has no page errors and no serious or critical axe-core violations', () => {
    expect(errors.flat()).toEqual([]);
    const bad = Object.entries(a11y).filter(([, v]) => v.length);
    expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
  });
});

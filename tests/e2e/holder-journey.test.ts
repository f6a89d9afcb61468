// The holder's journey in a real browser against the real server (embedded chain, temp data dir):
// dev-wallet sign-in with a real signature, profile, two certificates (PDF and PNG) verified live,
// mint (the wallet signs), share link opened by a verifier with no wallet who compares files, log out.
// Plus validation messages, access to someone else's certificate, the mobile layout and axe-core.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screenshot, watchErrors } from './helpers/browser';
import { describeE2E } from './helpers/e2e';
import { fillCertificateForm } from './helpers/forms';
import { offersProcedure } from './helpers/server';
import { injectRefusingWallet, newDevKeypair, REFUSING_WALLET_NAME, signInWithDevWallet } from './helpers/wallet';
import { certificatePdf, certificatePng, tempDir, type CertificateClaims } from './helpers/fixtures';
import sharp from 'sharp';
import { seriousViolations } from './helpers/axe';
import { gone, visible } from './helpers/pw';

const SETTLE_MS = 90_000;

const HOLDER = 'Ada Lovelace';
const today = new Date().toISOString().slice(0, 10);
const pdfClaims: CertificateClaims = {
  title: 'Bachelor of Science',
  institution_name: 'University of Testing',
  program_name: 'Computer Science',
  issue_date: today,
  holder: HOLDER,
};
const pngClaims: CertificateClaims = {
  title: 'Certificate of Completion',
  institution_name: 'Open Data Institute',
  program_name: 'Data Engineering',
  issue_date: today,
  holder: HOLDER,
};

// Each pipeline step waits a little, so the open page sees pending turn into verified live.
describeE2E('holder journey in a real browser', { env: { ATTESTA_TEST_STEP_DELAY_MS: '700' } }, (e2e) => {
  let holder: BrowserContext;
  let page: Page;
  let errors: string[];
  let files: { pdf: string; png: string; edited: string; mismatched: string; photo: string };
  /** Whether the PNG's certificate ended verified (its text is read by OCR). */
  let pngVerified = false;
  let filesDir = '';
  let pdfCertUrl = '';
  let shareLink = '';
  /** Asked of the server (mint.prepare): the mint steps run where it mints; in CI they must. */
  let hasMint = false;
  const a11y: Record<string, unknown[]> = {};

  async function checkA11y(p: Page, name: string) {
    a11y[name] = await seriousViolations(p);
  }

  async function toast(p: Page, title: string, timeout = 20_000) {
    try {
      await p.locator('[data-sonner-toast]').filter({ hasText: title }).first().waitFor({ timeout });
    } catch (e) {
      const shown = await p.locator('[data-sonner-toast]').allTextContents().catch(() => []);
      throw new Error(`No '${title}' toast; showing: ${JSON.stringify(shown)}`, { cause: e });
    }
  }

  async function createCertificate(p: Page, c: CertificateClaims, file: string) {
    await fillCertificateForm(p, c, file);
    await toast(p, 'Certificate Created');
    await p.waitForURL(/\/certificates\/(?!create)[^/]+$/, { timeout: 15_000 });
    return p.url();
  }

  /**
   * Waits on the open page (no reload) for the live status to leave pending. A holder's upload is checked
   * by the platform only: its badge reads "Checked by Attesta only", as its public verdict does.
   */
  async function settledStatus(p: Page) {
    const badge = p.locator('main').getByText(/^(Verified|Checked by Attesta only|Rejected)$/).first();
    await badge.waitFor({ timeout: SETTLE_MS });
    return (await badge.textContent())?.trim();
  }

  beforeAll(async () => {
    const dir = (filesDir = tempDir());
    files = {
      pdf: path.join(dir, 'bachelor-of-science.pdf'),
      png: path.join(dir, 'completion.png'),
      edited: path.join(dir, 'bachelor-of-science-edited.pdf'),
      mismatched: path.join(dir, 'unrelated.pdf'),
      photo: path.join(dir, 'photo.png'),
    };
    fs.writeFileSync(files.pdf, await certificatePdf(pdfClaims));
    fs.writeFileSync(files.png, await certificatePng(pngClaims, { noise: true }));
    fs.writeFileSync(files.edited, await certificatePdf(pdfClaims, 'Grade: First Class Honours (edited)'));
    // A document that names something else than the form claims: verification rejects it.
    fs.writeFileSync(files.mismatched, await certificatePdf({ ...pdfClaims, title: 'Master of Arts', program_name: 'Art History' }));
    fs.writeFileSync(files.photo, await sharp({ create: { width: 64, height: 64, channels: 3, background: '#4f46e5' } }).png().toBuffer());
    hasMint = await offersProcedure(e2e.server.url, 'mint.prepare');
    holder = await e2e.context({ permissions: ['clipboard-read', 'clipboard-write'], devWallet: newDevKeypair() });
    page = await holder.newPage();
    errors = watchErrors(page);
  });

  afterAll(async () => {
    if (filesDir) fs.rmSync(filesDir, { recursive: true, force: true });
  });

  it('guards signed-in routes and signs in with the development wallet', async () => {
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await visible(page.getByRole('link', { name: 'Terms of Service' }));
    await visible(page.getByRole('link', { name: 'Privacy Policy' }));
    await screenshot(page, '01-login');
    await checkA11y(page, 'login');
    await page.getByRole('button', { name: 'Connect Wallet' }).click();
    await screenshot(page, '02-connect-wallet-dialog');
    await page.getByRole('button', { name: /Attesta Dev Wallet/ }).click();
    await toast(page, 'Wallet connected');
    await toast(page, 'Successfully connected');
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent(), { timeout: 15_000 }).toMatch(/^Welcome, /);
    await visible(page.getByText('No certificates yet'));
    const stored = await page.evaluate(() => localStorage.getItem('walletAddress'));
    expect(stored).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    await screenshot(page, '03-dashboard-empty');
    await checkA11y(page, 'dashboard');
  });

  it('asks for the full name before a certificate is added, then validates and saves the profile', async () => {
    // A new wallet has no name yet: the check looks for it in the document, so the form asks first.
    await page.goto('/certificates/create');
    await visible(page.getByTestId('profile-name-needed'));
    expect(await page.getByTestId('profile-name-needed').textContent()).toContain('Add your full name first');
    expect(await page.getByRole('button', { name: 'Create Certificate' }).isDisabled()).toBe(true);
    await screenshot(page, '04a-create-needs-name');
    await page.getByRole('link', { name: 'Go to Profile' }).click();
    await page.waitForURL('**/profile');
    await visible(page.getByRole('heading', { name: 'Your Profile' }));
    await visible(page.getByText('Manage your personal information and wallet'));
    await page.getByLabel('Full Name').fill('');
    await page.getByLabel(/^Email/).fill('not-an-email');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await visible(page.getByText('Full name is required'));
    await visible(page.getByText('Please enter a valid email address'));
    await screenshot(page, '04-profile-validation');
    await page.getByLabel('Full Name').fill(HOLDER);
    await gone(page.getByText('Full name is required'));
    await page.getByLabel(/^Email/).fill('ada@example.com');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Profile Updated');
    await expect.poll(() => page.getByLabel('Connected Wallet Address').inputValue()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    // Photo: initials until one is uploaded, then the image (served publicly for shared links).
    await visible(page.getByText('JPG, PNG or GIF, max 2MB'));
    await page.getByTestId('photo-input').setInputFiles(files.photo);
    await visible(page.getByRole('img', { name: `${HOLDER}'s profile photo` }).first());
    await screenshot(page, '05-profile-saved');
    await checkA11y(page, 'profile');
  });

  it('shows the create form validation messages', async () => {
    await page.goto('/certificates/create');
    // With the name saved, the form says it is compared with the document too.
    await visible(page.getByText(`and your name (${HOLDER}), with the document`));
    expect(await page.getByTestId('profile-name-needed').count()).toBe(0);
    await page.getByLabel('Issue Date').fill('');
    await page.getByRole('button', { name: 'Create Certificate' }).click();
    for (const m of ['Title is required', 'Institution name is required', 'Program name is required', 'Issue date is required', 'Certificate file is required']) {
      await visible(page.getByText(m));
    }
    await screenshot(page, '06-create-validation');
    await checkA11y(page, 'create');
    // Editing a field clears its error.
    await page.getByLabel('Certificate Title').fill('   ');
    await gone(page.getByText('Title is required'));
  });

  it('creates a certificate from a PDF and sees it verified live', async () => {
    const subscriptions: string[] = [];
    const onRequest = (r: { url: () => string }) => r.url().includes('/trpc/certificate.onStatus') && subscriptions.push(r.url());
    page.on('request', onRequest);
    pdfCertUrl = await createCertificate(page, pdfClaims, files.pdf);
    await visible(page.locator('main').getByText('Pending', { exact: true }));
    expect(await settledStatus(page)).toBe('Checked by Attesta only');
    page.off('request', onRequest);
    // The open page listened over SSE (the 10 s polling is only the fallback).
    expect(subscriptions.length).toBeGreaterThan(0);
    // Announced as what it is: the platform's check, not the institution's word.
    await toast(page, 'Checked by Attesta only');
    expect(await page.locator('main').getByText(/^Verified$/).count()).toBe(0);
    await visible(page.locator('[data-testid=verification-log][data-status=success]').first());
    await visible(page.getByText('will be stored permanently when minted as an NFT'));
    await screenshot(page, '07-certificate-verified');
    await checkA11y(page, 'certificate-detail');
  });

  it('creates a certificate from a PNG (converted to PDF on the server), with real upload progress', async () => {
    // Throttle the upload so the progress bar shows the bytes actually sent (XHR upload events).
    const cdp = await holder.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 800 * 1024 });
    const seen = new Set<string>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const value = await page.locator('[role=progressbar]').getAttribute('aria-valuenow', { timeout: 100 }).catch(() => null);
        const stage = await page.locator('[data-stage]').getAttribute('data-stage', { timeout: 100 }).catch(() => null);
        if (value && stage) seen.add(`${stage}:${value}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      await createCertificate(page, pngClaims, files.png);
    } finally {
      sampling = false;
      await sampler;
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    }
    const uploading = [...seen].filter((v) => v.startsWith('uploading:')).map((v) => Number(v.split(':')[1]));
    expect(uploading.some((n) => n > 0 && n < 50), `progress samples: ${[...seen].join(' ')}`).toBe(true);
    expect([...seen].some((v) => v.startsWith('converting:'))).toBe(true);
    const status = await settledStatus(page);
    expect(['Checked by Attesta only', 'Rejected']).toContain(status);
    pngVerified = status === 'Checked by Attesta only';
    if (status === 'Rejected') await expect.poll(() => page.getByTestId('rejection-reason').textContent()).not.toBe('');
    await screenshot(page, '08-certificate-from-png');
  });

  it('rejects a document that does not name what the form claims, with its reason; Try Again restarts', async () => {
    await createCertificate(page, { ...pdfClaims, title: 'Doctor of Philosophy' }, files.mismatched);
    expect(await settledStatus(page)).toBe('Rejected');
    await toast(page, 'Verification Failed');
    await visible(page.getByText('Reason', { exact: true }));
    await expect.poll(() => page.getByTestId('rejection-reason').textContent()).toMatch(/title/i);
    await screenshot(page, '08b-certificate-rejected');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await toast(page, 'Verification Started');
    expect(await settledStatus(page)).toBe('Rejected');
  });

  it('mints the verified certificate; the wallet signs', async ({ skip }) => {
    if (!hasMint && process.env.CI) throw new Error('The server offers no mint.prepare procedure');
    skip(!hasMint, 'the server offers no mint.prepare procedure');
    await page.goto(pdfCertUrl);
    await page.getByRole('button', { name: 'Mint as NFT' }).click();
    // Minting sends a transaction and writes the permanent copy: allow for a busy machine.
    await toast(page, 'Certificate Minted', 60_000);
    await visible(page.getByTestId('mint-address'));
    await visible(page.getByRole('link', { name: /View on permanent storage/ }));
    await visible(page.getByText('Minted', { exact: true }).first());
    await screenshot(page, '09-certificate-minted');
  }, 120_000);

  it('lists, filters and counts the certificates', async () => {
    await page.goto('/certificates');
    await visible(page.getByRole('link', { name: pdfClaims.title }));
    await visible(page.getByRole('link', { name: pngClaims.title }));
    await page.getByRole('searchbox', { name: 'Search certificates' }).fill('no such thing');
    await visible(page.getByText('No certificates match your search'));
    await page.getByRole('searchbox', { name: 'Search certificates' }).fill('computer');
    await visible(page.getByRole('link', { name: pdfClaims.title }));
    await gone(page.getByRole('link', { name: pngClaims.title }));
    await page.getByRole('searchbox', { name: 'Search certificates' }).fill('');
    await screenshot(page, '10-certificates');
    await checkA11y(page, 'certificates');
    await page.goto('/dashboard');
    await expect.poll(() => page.getByTestId('stat-total').first().textContent(), { timeout: 15_000 }).toMatch('3');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent(), { timeout: 15_000 }).toMatch(`Welcome, ${HOLDER}`);
    await screenshot(page, '11-dashboard');
    // /verification is public, but a signed-in holder keeps the sidebar there.
    await page.getByRole('link', { name: 'Verification' }).click();
    await visible(page.getByRole('heading', { name: 'Verify a Certificate' }));
    await visible(page.getByRole('button', { name: 'Log Out' }));
  });

  it('copies the share link, which a verifier with no wallet opens and checks', async () => {
    await page.goto(pdfCertUrl);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await toast(page, 'Link Copied');
    shareLink = await page.evaluate(() => navigator.clipboard.readText());
    expect(shareLink).toMatch(new RegExp(`^${e2e.server.url}/view/[^/]+/[^/]+$`));

    const verifier = await e2e.context();
    const v = await verifier.newPage();
    const vErrors = watchErrors(v);
    await v.goto(shareLink);
    await visible(v.getByRole('heading', { level: 1, name: pdfClaims.title }));
    await expect.poll(() => v.getByTestId('verdict-summary').first().getAttribute('data-valid'), { timeout: 20_000 }).toBe('true');
    for (const step of ['integrity', 'status', 'tier', 'issuer', 'holder', 'timestamps', 'signatures']) {
      await visible(v.getByTestId(`step-${step}`));
    }
    await visible(v.getByRole('link', { name: 'Download Certificate' }));
    if (hasMint) {
      await visible(v.getByTestId('permanent-copy'));
      await visible(v.getByText('Soulbound NFT', { exact: true }).first());
    }
    // No wallet code reaches a verifier.
    expect(await v.evaluate(() => localStorage.getItem('attesta-dev-wallet'))).toBeNull();

    await v.locator('input[type=file]').setInputFiles(files.pdf);
    await expect.poll(() => v.getByTestId('compare-result').first().getAttribute('data-match'), { timeout: 20_000 }).toBe('true');
    await screenshot(v, '12-public-view-match');
    await checkA11y(v, 'public-view');

    // The edited copy, dropped like a user would.
    const bytes = fs.readFileSync(files.edited).toString('base64');
    await v.getByTestId('file-drop-zone').first().evaluate((zone, b64) => {
      const bin = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bin], 'edited.pdf', { type: 'application/pdf' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, bytes);
    const result = v.getByTestId('compare-result');
    await expect.poll(() => result.first().getAttribute('data-match'), { timeout: 20_000 }).toBe('false');
    const expected = await v.getByTestId('compare-expected').textContent();
    const actual = await v.getByTestId('compare-actual').textContent();
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    expect(actual).toMatch(/^[0-9a-f]{64}$/);
    expect(actual).not.toBe(expected);
    await screenshot(v, '13-public-view-mismatch');

    // /verification is open to everyone: by id, unknown id, and by file.
    await v.goto('/verification');
    const idInput = v.getByLabel('Certificate ID');
    await expect.poll(() => v.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
    await idInput.fill('   ');
    await expect.poll(() => v.getByRole('button', { name: 'Verify' }).isDisabled()).toBe(true);
    await idInput.fill('no-such-certificate');
    await idInput.press('Enter');
    await visible(v.getByText("We couldn't find a certificate with the ID you provided. Please check the ID and try again"));
    // This server has no demo data: the demo IDs are not offered (verdicts-and-layout: they are where it has).
    expect(await v.getByText(/cert-1 to cert-3/).count()).toBe(0);
    await idInput.fill(pdfCertUrl.split('/').pop()!);
    await idInput.press('Enter');
    await expect.poll(() => v.getByTestId('verdict-summary').first().getAttribute('data-valid'), { timeout: 20_000 }).toBe('true');
    await screenshot(v, '14-verification-by-id');
    await checkA11y(v, 'verification');
    await v.getByRole('tab', { name: 'File' }).click();
    // The certificate just looked up is in view: the file is compared with it.
    await v.locator('input[type=file]').setInputFiles(files.pdf);
    await expect.poll(() => v.getByTestId('compare-result').first().getAttribute('data-match'), { timeout: 15_000 }).toBe('true');
    // On its own, the file is looked up by its fingerprint.
    await v.getByRole('button', { name: 'Check the file alone' }).click();
    await v.locator('input[type=file]').setInputFiles(files.pdf);
    await expect.poll(() => v.getByTestId('file-hash').first().textContent(), { timeout: 15_000 }).toBe(expected);
    await expect.poll(() => v.getByTestId('verdict-summary').first().getAttribute('data-valid'), { timeout: 20_000 }).toBe('true');
    await screenshot(v, '15-verification-by-file');
    // The PNG as its holder uploaded it (Attesta recorded the PDF made from it): once verified, its
    // certificate's verdict, saying what the file is; not "never registered, or changed since".
    await v.locator('input[type=file]').setInputFiles(files.png);
    if (pngVerified) {
      await visible(v.getByTestId('verdict-original-upload'));
      expect(await v.getByTestId('verdict-original-upload').innerText()).toMatch(/^This is the original image its holder uploaded: Attesta converted it to the PDF recorded on chain/);
      expect(await v.getByTestId('verdict').innerText()).toContain(pngClaims.title);
      expect(await v.getByText(/changed since/).count()).toBe(0);
    } else {
      await visible(v.getByText(/not recorded on chain/));
    }
    expect(vErrors).toEqual([]);
    await verifier.close();
  });

  it('shows Connecting.... while signing in, and Authentication failed when the server refuses', async () => {
    const ctx = await e2e.context({ devWallet: newDevKeypair() });
    const p = await ctx.newPage();
    // Slow nonce: the connect buttons stay disabled and read 'Connecting....'; then the sign-in is refused.
    await p.route('**/trpc/auth.nonce**', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await p.route('**/trpc/auth.signIn**', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        // httpBatchLink posts `?batch=1` and reads an array of results.
        body: JSON.stringify([{ error: { message: 'Signature does not match the address', code: -32001, data: { code: 'UNAUTHORIZED', httpStatus: 401 } } }]),
      }),
    );
    await p.goto('/login');
    await p.getByRole('button', { name: 'Connect Wallet' }).click();
    await p.getByRole('button', { name: /Attesta Dev Wallet/ }).click();
    const busy = p.getByRole('button', { name: /Connecting\.\.\.\./ });
    await visible(busy);
    expect(await busy.first().isDisabled()).toBe(true);
    await toast(p, 'Authentication failed');
    expect(p.url()).toMatch(/\/login$/);
    expect(await p.evaluate(() => localStorage.getItem('walletAddress'))).toBeNull();
    await ctx.close();
  });

  it('says Disconnection failed when the wallet refuses to disconnect; Log Out again ends the session', async () => {
    const ctx = await e2e.context({ devWallet: newDevKeypair() });
    await injectRefusingWallet(ctx);
    const p = await ctx.newPage();
    await p.goto('/login');
    await p.getByRole('button', { name: 'Connect Wallet' }).click();
    await p.getByRole('button', { name: new RegExp(REFUSING_WALLET_NAME) }).click();
    await p.waitForURL('**/dashboard');
    await p.getByRole('button', { name: 'Log Out' }).click();
    await toast(p, 'Disconnection failed');
    expect(await p.locator('[data-sonner-toast]').filter({ hasText: 'Disconnection failed' }).first().textContent()).toContain('Failed to disconnect wallet. Please try again.');
    // Still signed in: the session did not end behind the holder's back.
    expect(p.url()).toMatch(/\/dashboard$/);
    expect(await p.locator('[data-sonner-toast]').filter({ hasText: 'Logged out' }).count()).toBe(0);
    await p.getByRole('button', { name: 'Log Out' }).click();
    await toast(p, 'Wallet disconnected');
    await toast(p, 'Logged out');
    await p.waitForURL(e2e.server.url + '/');
    await ctx.close();
  });

  it('hides another user\'s certificate', async () => {
    const other = await e2e.context({ devWallet: newDevKeypair() });
    const p = await other.newPage();
    await signInWithDevWallet(p);
    await p.goto(new URL(pdfCertUrl).pathname);
    await visible(p.getByRole('heading', { name: 'Certificate Not Found' }));
    await visible(p.getByRole('link', { name: 'Back to Certificates' }));
    await screenshot(p, '16-certificate-not-found');
    await other.close();
  });

  it('uses a top bar with a menu below 768 px', async () => {
    const mobile = await holder.newPage();
    await mobile.setViewportSize({ width: 390, height: 844 });
    await mobile.goto('/dashboard');
    await visible(mobile.getByRole('heading', { level: 1 }));
    await gone(mobile.getByRole('link', { name: 'Certificates', exact: true }));
    await screenshot(mobile, '17-mobile-dashboard');
    await mobile.getByRole('button', { name: 'Toggle menu' }).click();
    const menu = mobile.getByRole('dialog');
    await visible(menu.getByRole('link', { name: 'Certificates' }));
    await screenshot(mobile, '18-mobile-menu');
    await menu.getByRole('link', { name: 'Profile' }).click();
    await mobile.waitForURL('**/profile');
    await mobile.close();
  });

  it('logs out', async () => {
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Log Out' }).click();
    await toast(page, 'Wallet disconnected');
    await toast(page, 'Logged out');
    await page.waitForURL(e2e.server.url + '/');
    expect(await page.evaluate(() => localStorage.getItem('walletAddress'))).toBeNull();
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
  });

  it('has no serious or critical axe-core violations on the main pages', () => {
    expect(errors).toEqual([]);
    const bad = Object.entries(a11y).filter(([, v]) => v.length);
    expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
  });
});

// Institutions in the product (issue 14) in a real browser against the real server (embedded chain,
// HTTP cache on): an institution registers and proves its domain (a real DNS server on loopback,
// server/test/net-peers/dns.ts, the product's resolver pointed at it), the operator approves it, it
// issues a certificate to a holder who sees it issuer-confirmed; the holder asks it to confirm a
// certificate of their own and it confirms, the holder's page turning confirmed live; the operator
// revokes one for fraud, which the holder's page and the public view show. Screenshots of the portal,
// the console and the holder's request; axe-core on each.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startDnsServer } from '../../server/test/net-peers/dns';
import { seriousViolations } from './helpers/axe';
import { screenshot, watchErrors } from './helpers/browser';
import { describeE2E } from './helpers/e2e';
import { certificatePdf, tempDir, type CertificateClaims } from './helpers/fixtures';
import { fillCertificateForm, setProfileName } from './helpers/forms';
import { visible } from './helpers/pw';
import { newDevKeypair, signInWithDevWallet } from './helpers/wallet';

const SETTLE_MS = 90_000;
const DOMAIN = 'northfield.test';
const INSTITUTION = 'Northfield University';
const HOLDER = 'Grace Hopper';
const today = new Date().toISOString().slice(0, 10);
const issuedClaims: CertificateClaims = { title: 'Master of Engineering', institution_name: INSTITUTION, program_name: 'Systems Engineering', issue_date: today, holder: HOLDER };
const ownClaims: CertificateClaims = { title: 'Bachelor of Science', institution_name: INSTITUTION, program_name: 'Mathematics', issue_date: today, holder: HOLDER };
const declinedClaims: CertificateClaims = { title: 'Diploma in Statistics', institution_name: INSTITUTION, program_name: 'Statistics', issue_date: today, holder: HOLDER };
const DECLINE_REASON = 'Our records show no such diploma for this holder.';
/** What the holder reads once the institution signed: who, its domain, proven (never "the institution"). */
const CONFIRMED = `Confirmed by ${INSTITUTION} (${DOMAIN}, domain proven): its own key signed the record.`;

const dns = await startDnsServer();
const institutionKey = newDevKeypair();
const operatorKey = newDevKeypair();
const holderKey = newDevKeypair();

describeE2E(
  'institutions: portal, operator console and confirmation requests in a real browser',
  {
    env: {
      ATTESTA_OPERATOR_WALLETS: operatorKey.publicKey.toBase58(),
      ATTESTA_DNS_SERVERS: dns.server,
      ATTESTA_DOMAIN_PROOF_TIMEOUT_MS: '2000',
    },
    dismissDevNotice: true,
  },
  (e2e) => {
    let institution: Page;
    let operator: Page;
    let holder: Page;
    const errors: string[][] = [];
    let filesDir = '';
    let issuedPdf = '';
    let ownPdf = '';
    let declinedPdf = '';
    const a11y: Record<string, unknown[]> = {};

    async function toast(p: Page, title: string, timeout = 30_000) {
      try {
        await p.locator('[data-sonner-toast]').filter({ hasText: title }).first().waitFor({ timeout });
      } catch (e) {
        const shown = await p.locator('[data-sonner-toast]').allTextContents().catch(() => []);
        throw new Error(`No '${title}' toast; showing: ${JSON.stringify(shown)}`, { cause: e });
      }
    }

    async function signedIn(key: ReturnType<typeof newDevKeypair>) {
      const context = await e2e.context({ devWallet: key });
      const page = await context.newPage();
      errors.push(watchErrors(page));
      await signInWithDevWallet(page);
      return page;
    }

    beforeAll(async () => {
      filesDir = tempDir();
      issuedPdf = path.join(filesDir, 'master-of-engineering.pdf');
      ownPdf = path.join(filesDir, 'bachelor-of-science.pdf');
      fs.writeFileSync(issuedPdf, await certificatePdf(issuedClaims));
      fs.writeFileSync(ownPdf, await certificatePdf(ownClaims));
      declinedPdf = path.join(filesDir, 'diploma-in-statistics.pdf');
      fs.writeFileSync(declinedPdf, await certificatePdf(declinedClaims));
      institution = await signedIn(institutionKey);
      operator = await signedIn(operatorKey);
      holder = await signedIn(holderKey);
      await setProfileName(holder, HOLDER);
    }, 120_000);

    afterAll(async () => {
      await dns.close();
      if (filesDir) fs.rmSync(filesDir, { recursive: true, force: true });
    });

    it('the institution registers: its wallet signs, it is pending and is told what to publish', async () => {
      const p = institution;
      await p.getByRole('link', { name: 'Institution', exact: true }).click();
      await p.waitForURL('**/institution');
      await visible(p.getByRole('heading', { name: 'Register your institution' }));
      // Validation says what to fix.
      await p.getByRole('button', { name: 'Register institution' }).click();
      await visible(p.getByText('The institution’s name is required'));
      await visible(p.getByText('The institution’s domain is required'));
      await screenshot(p, 'inst-01-register-validation');
      a11y['register'] = await seriousViolations(p);
      await p.getByLabel('Institution name').fill(INSTITUTION);
      await p.getByLabel('Domain', { exact: true }).fill(DOMAIN);
      await p.getByRole('button', { name: 'Register institution' }).click();
      await toast(p, 'Institution Registered');
      await visible(p.getByRole('heading', { name: INSTITUTION, level: 1 }));
      await expect.poll(() => p.getByTestId('issuer-status').first().getAttribute('data-status')).toBe('pending');
      await visible(p.getByText(`_attesta.${DOMAIN}`));
      await visible(p.getByText(`attesta-issuer=${institutionKey.publicKey.toBase58()}`));
      await visible(p.getByText('Issuing opens once your domain is proven'));
    });

    it('proves its domain by a DNS TXT record: Check now shows what each method found', async () => {
      const p = institution;
      await p.getByRole('button', { name: 'Check now' }).click();
      await toast(p, 'Domain Not Proven');
      await expect.poll(() => p.getByTestId('proof-status').textContent()).toBe('Not proven');
      dns.zone.txt.set(`_attesta.${DOMAIN}`, [`attesta-issuer=${institutionKey.publicKey.toBase58()}`]);
      await p.getByRole('button', { name: 'Check now' }).click();
      await toast(p, 'Domain Proven');
      await expect.poll(() => p.getByTestId('proof-status').textContent()).toBe('Proven');
      await screenshot(p, 'inst-02-portal-pending-proven');
      a11y['portal-pending'] = await seriousViolations(p);
    });

    it('the operator sees it pending with its proof and approves it; the audit log says so', async () => {
      const p = operator;
      await p.getByRole('link', { name: 'Operator' }).click();
      await p.waitForURL('**/operator');
      const row = p.getByTestId('issuer-row').filter({ hasText: INSTITUTION });
      await visible(row);
      await expect.poll(() => row.getByTestId('proof-status').textContent()).toBe('Proven');
      await row.getByRole('button', { name: `Approve ${INSTITUTION}` }).click();
      await toast(p, 'Institution Approved');
      await expect.poll(() => row.getByTestId('issuer-status').getAttribute('data-status')).toBe('approved');
      await visible(p.getByTestId('audit-row').filter({ hasText: 'operator.approve' }));
      await visible(p.getByTestId('audit-row').filter({ hasText: 'issuer.register' }));
      // A fraud revocation needs its note.
      await p.getByRole('button', { name: 'Revoke for fraud' }).click();
      await visible(p.getByText('A certificate ID is required'));
      await visible(p.getByText('A note is required: say what the fraud is'));
      await screenshot(p, 'inst-03-operator-console');
      a11y['operator'] = await seriousViolations(p);
    });

    it('a holder who is no operator has no console in the sidebar', async () => {
      await holder.goto('/dashboard');
      await visible(holder.getByRole('link', { name: 'Institution', exact: true }));
      expect(await holder.getByRole('link', { name: 'Operator' }).count()).toBe(0);
    });

    it('the approved institution issues a certificate to the holder (after a reload, the HTTP cache on)', async () => {
      const p = institution;
      await p.reload();
      await expect.poll(() => p.getByTestId('issuer-status').first().getAttribute('data-status'), { timeout: 15_000 }).toBe('approved');
      await p.getByRole('button', { name: 'Issue certificate' }).click();
      await visible(p.getByText('A certificate file (PDF or image) is required'));
      await p.getByLabel('Certificate title').fill(issuedClaims.title);
      await p.getByLabel('Program', { exact: true }).fill(issuedClaims.program_name);
      await p.getByLabel('Issue date').fill(issuedClaims.issue_date);
      await p.getByLabel('Holder’s wallet address').fill(holderKey.publicKey.toBase58());
      await p.locator('input[type=file]').setInputFiles(issuedPdf);
      await visible(p.getByText('master-of-engineering.pdf'));
      await p.getByRole('button', { name: 'Issue certificate' }).click();
      await toast(p, 'Certificate Issued');
      const issued = p.getByTestId('issued-row').filter({ hasText: issuedClaims.title });
      await visible(issued);
      await visible(issued.getByRole('link', { name: /Public view/ }));
      await screenshot(p, 'inst-04-portal-issued');
      a11y['portal-approved'] = await seriousViolations(p);
    });

    it('the holder sees it in their list at once, confirmed by the institution', async () => {
      const p = holder;
      await p.goto('/certificates');
      await p.getByText(issuedClaims.title).first().click();
      await p.waitForURL(/\/certificates\/[^/]+$/);
      await visible(p.getByTestId('confirmation-panel'));
      await expect.poll(() => p.getByTestId('request-state').textContent(), { timeout: 15_000 }).toContain(CONFIRMED);
      // Its history is the institution's issue: who, when, the transaction; no platform run pretends to it.
      const issued = p.locator('[data-testid=history-event][data-kind=issued]');
      await visible(issued);
      expect(await issued.innerText()).toContain(`Issued by ${INSTITUTION}`);
      await visible(issued.getByTestId('history-signature'));
      expect(await p.getByTestId('verification-attempt').count()).toBe(0);
    });

    it('the holder asks the institution to confirm their own upload; it confirms; the page turns confirmed live', async () => {
      const p = holder;
      await fillCertificateForm(p, ownClaims, ownPdf);
      await toast(p, 'Certificate Created');
      await p.waitForURL(/\/certificates\/(?!create)[^/]+$/, { timeout: 15_000 });
      await p.locator('main').getByText(/^Verified$/).first().waitFor({ timeout: SETTLE_MS });
      // Checked by the platform only: said so, in those words, and the institution step is no green check.
      await expect
        .poll(() => p.getByTestId('holder-verdict').textContent())
        .toBe(`Checked by Attesta only: the file is intact and its text names the title, institution, program and ${HOLDER}; not confirmed by ${INSTITUTION}. Ask the institution to confirm it (below).`);
      const institutionStep = p.locator('[data-testid=verification-log][data-step=issuer_verification]').first();
      await expect.poll(() => institutionStep.getAttribute('data-tone')).toBe('neutral');
      expect((await institutionStep.innerText()).replace(/\s+/g, ' ')).toContain(`Institution confirmation Not confirmed by ${INSTITUTION}: checked by Attesta only.`);
      const panel = p.getByTestId('confirmation-panel');
      await visible(panel.getByRole('button', { name: 'Request confirmation' }));
      // Only the institution the certificate names is offered.
      await expect.poll(() => panel.getByLabel('Institution', { exact: true }).locator('option').allTextContents()).toEqual([`${INSTITUTION} (${DOMAIN}, domain proven)`]);
      // Consent is required.
      await panel.getByRole('button', { name: 'Request confirmation' }).click();
      await visible(panel.getByText('Consent to share the file with the institution to send the request.'));
      await panel.getByLabel(/I consent to share/).check();
      await screenshot(p, 'inst-05-holder-request');
      a11y['holder-request'] = await seriousViolations(p);
      await panel.getByRole('button', { name: 'Request confirmation' }).click();
      await toast(p, 'Confirmation Requested');
      await expect.poll(() => p.getByTestId('request-state').textContent(), { timeout: 15_000 }).toContain('Request open');

      // The institution's queue: the request, its file, confirm (the wallet signs).
      const q = institution;
      await q.goto('/institution');
      const request = q.getByTestId('request-row').filter({ hasText: ownClaims.title });
      await visible(request, 20_000);
      await visible(request.getByRole('link', { name: /Open file/ }));
      // The institution the holder's details name, as the holder asked them.
      expect(await request.getByTestId('request-institution').innerText()).toBe(`Names ${INSTITUTION}`);
      await screenshot(q, 'inst-06-portal-queue');
      await request.getByRole('button', { name: 'Confirm' }).click();
      await toast(q, 'Certificate Confirmed');

      // The holder's open page (no reload) follows.
      await expect.poll(() => p.getByTestId('request-state').textContent(), { timeout: 20_000 }).toContain(CONFIRMED);
      await expect.poll(() => p.getByTestId('holder-verdict').textContent()).toBe(CONFIRMED);
      expect(await p.getByTestId('holder-verdict').getAttribute('data-confirmed')).toBe('true');
      // The history agrees with the status: the confirmation is an entry of its own (newest), with its
      // transaction; the platform's run below it keeps its own outcome, checked by Attesta only.
      const confirmed = p.locator('[data-testid=history-event][data-kind=confirmed]');
      await visible(confirmed);
      expect(await confirmed.getAttribute('data-claims-confirmed')).toBe('true');
      expect(await confirmed.innerText()).toContain(`Confirmed by ${INSTITUTION}`);
      expect(await confirmed.innerText()).toContain(`It confirmed the details it was shown: “${ownClaims.title}”, ${ownClaims.program_name}, ${INSTITUTION}, ${ownClaims.issue_date}.`);
      await visible(confirmed.getByTestId('history-signature'));
      const history = p.getByRole('list', { name: 'Certificate history' });
      expect(await history.locator(':scope > li').first().getAttribute('data-kind')).toBe('confirmed');
      const run = p.getByTestId('verification-attempt');
      expect(await run.count()).toBe(1);
      expect(await run.getAttribute('data-outcome')).toBe('verified');
      expect(await run.getByTestId('status-badge').innerText()).toBe('Checked by Attesta');
      await visible(p.locator('[data-testid=history-event][data-kind=confirmation_requested]'));
      await screenshot(p, 'inst-07-holder-confirmed');
      await visible(q.getByTestId('issued-row').filter({ hasText: ownClaims.title }));
    });

    it('the institution declines another request with a reason the holder reads live; then revokes a certificate it issued', async () => {
      const p = holder;
      await fillCertificateForm(p, declinedClaims, declinedPdf);
      await toast(p, 'Certificate Created');
      await p.waitForURL(/\/certificates\/(?!create)[^/]+$/, { timeout: 15_000 });
      await p.locator('main').getByText(/^Verified$/).first().waitFor({ timeout: SETTLE_MS });
      const panel = p.getByTestId('confirmation-panel');
      await panel.getByLabel(/I consent to share/).check();
      await panel.getByRole('button', { name: 'Request confirmation' }).click();
      await toast(p, 'Confirmation Requested');

      const q = institution;
      await q.goto('/institution');
      const request = q.getByTestId('request-row').filter({ hasText: declinedClaims.title });
      await visible(request, 20_000);
      await request.getByRole('button', { name: 'Decline' }).click();
      await request.getByRole('button', { name: 'Decline request' }).click();
      await visible(request.getByText('Say why you decline (the holder reads it)'));
      await request.getByLabel(/Reason/).fill(DECLINE_REASON);
      await request.getByRole('button', { name: 'Decline request' }).click();
      await toast(q, 'Request Declined');
      await expect.poll(() => p.getByTestId('request-state').textContent(), { timeout: 20_000 }).toContain(DECLINE_REASON);
      // The holder may ask again.
      await visible(panel.getByRole('button', { name: 'Request confirmation' }));
      await screenshot(p, 'inst-08-holder-declined');

      // Revoke, with a reason and a note: the list says revoked.
      const issued = q.getByTestId('issued-row').filter({ hasText: issuedClaims.title });
      await issued.getByRole('button', { name: /Revoke/ }).click();
      const dialog = q.getByRole('dialog');
      await visible(dialog.getByText('This cannot be undone.', { exact: false }));
      await dialog.getByLabel('Reason').selectOption('revoked_superseded');
      await dialog.getByLabel(/Note/).fill('Replaced by the corrected diploma.');
      await screenshot(q, 'inst-09-revoke-dialog', { fullPage: false });
      a11y['revoke-dialog'] = await seriousViolations(q);
      await dialog.getByRole('button', { name: 'Revoke certificate' }).click();
      await toast(q, 'Certificate Revoked');
      await expect.poll(() => issued.getByTestId('status-badge').getAttribute('data-status'), { timeout: 15_000 }).toBe('revoked');
      await visible(issued.getByText('Replaced by the corrected diploma.'));
      await q.getByLabel('Status filter').selectOption('revoked');
      await expect.poll(() => q.getByTestId('issued-row').count()).toBe(1);
    });

    it('the operator revokes a certificate for fraud: the holder\'s page (live, then after a reload) and the public view say revoked as fraudulent; the audit log has it', async () => {
      // The holder's own upload the institution confirmed, open on the holder's page.
      const h = holder;
      await h.goto('/certificates');
      await h.getByText(ownClaims.title).first().click();
      await h.waitForURL(/\/certificates\/[^/]+$/);
      const id = new URL(h.url()).pathname.split('/').pop()!;
      await expect.poll(() => h.getByTestId('request-state').textContent(), { timeout: 15_000 }).toContain(CONFIRMED);
      // Its public link, from the institution's list (a visitor's way in).
      await institution.goto('/institution');
      const href = await institution.getByTestId('issued-row').filter({ hasText: ownClaims.title }).getByRole('link', { name: /Public view/ }).getAttribute('href');
      expect(href).toMatch(new RegExp(`/view/[^/]+/${id}$`));

      // Before: a visitor reads it confirmed by the institution, whose domain is proven, with its own key.
      const before = await e2e.page();
      errors.push(watchErrors(before));
      await before.goto(href!);
      const summary = before.getByTestId('verdict-summary');
      await expect.poll(() => summary.getAttribute('data-status'), { timeout: 20_000 }).toBe('verified');
      expect(await summary.getAttribute('data-tone')).toBe('pass');
      expect(await summary.innerText()).toMatch(new RegExp(`Authentic: confirmed by ${INSTITUTION}\\s+Confirmed by ${INSTITUTION} \\(${DOMAIN.replace('.', '\\.')}\\): its own key signed the record\\.`));
      expect(await before.getByTestId('step-tier').getAttribute('data-tone')).toBe('pass');
      expect(await before.getByTestId('step-tier').textContent()).toContain(`Issuer confirmed: ${INSTITUTION} (${DOMAIN}, domain proven) signed this record on chain with its own key.`);
      expect(await before.locator('main [data-testid=status-badge]').first().innerText()).toBe('Verified');
      await before.context().close();

      const p = operator;
      await p.goto('/operator');
      await p.getByLabel('Certificate ID').fill(id);
      await p.getByLabel('Note (required)').fill('The holder never studied here: the diploma was forged.');
      await p.getByRole('button', { name: 'Revoke for fraud' }).click();
      await toast(p, 'Certificate Revoked');
      const entry = p.getByTestId('audit-row').filter({ hasText: 'operator.revoke' });
      await visible(entry);
      await expect(entry.first().innerText()).resolves.toContain(id);
      await screenshot(p, 'inst-12-operator-fraud-revoked');

      // The holder's open page follows without a reload, and says so again after one (HTTP cache on).
      const revocation = h.getByTestId('revocation');
      await expect.poll(() => revocation.textContent().catch(() => ''), { timeout: 20_000 }).toMatch(/revoked as fraudulent/);
      await h.reload();
      await expect.poll(() => revocation.textContent().catch(() => ''), { timeout: 20_000 }).toMatch(/Revoked on .* by .*: revoked as fraudulent\./);
      // The history has the revocation as an entry of its own: by the operator, with its transaction.
      const revokedEntry = h.locator('[data-testid=history-event][data-kind=revoked]');
      await visible(revokedEntry);
      expect(await revokedEntry.innerText()).toContain('Revoked by Attesta (the platform operator)');
      await visible(revokedEntry.getByTestId('history-signature'));
      await screenshot(h, 'inst-13-holder-fraud-revoked');

      // A visitor with no wallet: not valid, revoked as fraudulent, and when.
      const visitor = await e2e.page();
      errors.push(watchErrors(visitor));
      await visitor.goto(href!);
      await expect.poll(() => visitor.locator('main').innerText(), { timeout: 20_000 }).toMatch(/Not valid: revoked/);
      const text = await visitor.locator('main').innerText();
      expect(text).toMatch(/revoked as fraudulent/i);
      expect(text).toMatch(/Revoked [A-Z][a-z]+ \d{1,2}, \d{4}/);
      await screenshot(visitor, 'inst-14-public-fraud-revoked');
      a11y['public-revoked'] = await seriousViolations(visitor);
      await visitor.context().close();
    });

    it('the portal and the console fit a phone screen (no sideways scrolling)', async () => {
      for (const [p, url, name] of [
        [institution, '/institution', 'inst-10-portal-mobile'],
        [operator, '/operator', 'inst-11-operator-mobile'],
      ] as const) {
        await p.setViewportSize({ width: 390, height: 844 });
        await p.goto(url);
        await visible(p.getByRole('heading', { level: 1 }));
        await p.waitForLoadState('networkidle');
        expect(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), url).toBeLessThanOrEqual(0);
        await screenshot(p, name);
        a11y[name] = await seriousViolations(p);
      }
    });

    it('has no page errors and no serious or critical axe-core violations', () => {
      expect(errors.flat()).toEqual([]);
      const bad = Object.entries(a11y).filter(([, v]) => v.length);
      expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
    });
  },
);

// Institutions in the product (issue 14) in a real browser against the real server (embedded chain,
// HTTP cache on): an institution registers and proves its domain (a real DNS server on loopback,
// server/test/net-peers/dns.ts, the product's resolver pointed at it), the operator approves it, it
// issues a certificate to a holder who sees it issuer-confirmed; the holder asks it to confirm a
// certificate of their own and it confirms, the holder's page turning confirmed live; the operator
// revokes one for fraud, which the holder's page and the public view show. Screenshots of the portal,
// the console and the holder's request; axe-core on each. A second institution of the same name whose
// domain is not proven: the console tells the two apart by domain, keeps Approve closed for it (saying
// why) and suspends it only once the operator confirms what that does.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startDnsServer } from '../../server/test/net-peers/dns';
import { seriousViolations } from './helpers/axe';
import { screenshot, watchErrors } from './helpers/browser';
import { describeE2E } from './helpers/e2e';
import { certificatePdf, tempDir, type CertificateClaims } from './helpers/fixtures';
import { fillCertificateForm, setProfileName } from './helpers/forms';
import { gone, visible } from './helpers/pw';
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
/** Another institution registered under the same name, at a domain it never proves. */
const IMPOSTOR_DOMAIN = 'northfield-online.test';
/** The issued certificate's expiry: June 30 of next year. */
const EXPIRES_ON = `${new Date().getUTCFullYear() + 1}-06-30`;
/** A calendar date as every page shows it ("March 15, 2023"; the browser's locale is en-US). */
const longDate = (day: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
const WIDTHS = [375, 768, 1024, 1440] as const;
const FRAUD_NOTE = 'The holder never studied here: the diploma was forged.';
/** What the holder reads once the institution signed: who, its domain, proven (never "the institution"). */
const CONFIRMED = `Confirmed by ${INSTITUTION} (${DOMAIN}, domain proven): its own key signed the record.`;

const dns = await startDnsServer();
const institutionKey = newDevKeypair();
const operatorKey = newDevKeypair();
const holderKey = newDevKeypair();
const impostorKey = newDevKeypair();

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
    let impostor: Page;
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

    async function signedIn(key: ReturnType<typeof newDevKeypair>, landing?: Parameters<typeof signInWithDevWallet>[1]) {
      const context = await e2e.context({ devWallet: key, permissions: ['clipboard-read', 'clipboard-write'] });
      const page = await context.newPage();
      errors.push(watchErrors(page));
      await signInWithDevWallet(page, landing);
      return page;
    }

    /** An audit row's transaction link opens the app's explorer on a transaction with `instruction` in it (a visitor's page). */
    async function auditTransactionShows(row: Locator, instruction: string) {
      const tx = await row.getByTestId('audit-transaction').getAttribute('href');
      expect(tx).toMatch(/\/explorer\/tx\/[1-9A-HJ-NP-Za-km-z]{64,90}$/);
      const explorer = await e2e.page();
      errors.push(watchErrors(explorer));
      await explorer.goto(tx!);
      await visible(explorer.locator(`[data-testid=explorer-instruction][data-name=${instruction}]`), 20_000);
      await explorer.context().close();
    }

    /** An element's text with its white space (line breaks between blocks) as single spaces. */
    const words = async (l: Locator) => (await l.innerText()).replace(/\s+/g, ' ').trim();

    /** The operator's row of an institution, by its key (several may share a name). */
    const issuerRow = (p: Page, key: ReturnType<typeof newDevKeypair>) => p.locator(`[data-testid=issuer-row][data-authority="${key.publicKey.toBase58()}"]`);

    /** How many lines each text node of `selector`'s element spans, in order ("attesta-issuer=", the address). */
    const linesOfParts = (p: Page, selector: string) =>
      p.locator(selector).evaluate((el) => {
        const out: { text: string; lines: number }[] = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(n);
          out.push({ text: n.textContent ?? '', lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size });
        }
        return out;
      });

    beforeAll(async () => {
      filesDir = tempDir();
      issuedPdf = path.join(filesDir, 'master-of-engineering.pdf');
      ownPdf = path.join(filesDir, 'bachelor-of-science.pdf');
      fs.writeFileSync(issuedPdf, await certificatePdf(issuedClaims));
      fs.writeFileSync(ownPdf, await certificatePdf(ownClaims));
      declinedPdf = path.join(filesDir, 'diploma-in-statistics.pdf');
      fs.writeFileSync(declinedPdf, await certificatePdf(declinedClaims));
      institution = await signedIn(institutionKey);
      // An operator lands on its console.
      operator = await signedIn(operatorKey, '/operator');
      holder = await signedIn(holderKey);
      impostor = await signedIn(impostorKey);
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
      // Each thing to publish has its copy button, which copies it exactly.
      const publish = p.getByTestId('proof-publish');
      for (const [button, value] of [
        ['Copy the TXT record’s name', `_attesta.${DOMAIN}`],
        ['Copy the TXT record’s value', `attesta-issuer=${institutionKey.publicKey.toBase58()}`],
        ['Copy the file’s URL', `https://${DOMAIN}/.well-known/attesta-issuer.json`],
        ['Copy the file’s content', JSON.stringify({ authority: institutionKey.publicKey.toBase58() })],
      ]) {
        await publish.getByRole('button', { name: button }).click();
        await expect.poll(() => p.evaluate(() => navigator.clipboard.readText()), { message: button }).toBe(value);
      }
      // The record's value never breaks inside "attesta-issuer="; its address stays on one line wherever
      // the line is long enough for it (every width but a phone's).
      for (const width of WIDTHS) {
        await p.setViewportSize({ width, height: 900 });
        const parts = await linesOfParts(p, '[data-testid=proof-dns-value]');
        expect(parts.map((x) => x.text)).toEqual(['attesta-issuer=', institutionKey.publicKey.toBase58()]);
        expect(parts[0].lines, `"attesta-issuer=" at ${width} px`).toBe(1);
        if (width >= 768) expect(parts[1].lines, `the address at ${width} px`).toBe(1);
        await screenshot(p, `inst-01b-publish-${width}`, { fullPage: false });
      }
      await p.setViewportSize({ width: 1280, height: 720 });
    });

    it('another institution registers under the same name, at a domain it never proves', async () => {
      const p = impostor;
      await p.goto('/institution');
      await p.getByLabel('Institution name').fill(INSTITUTION);
      await p.getByLabel('Domain', { exact: true }).fill(IMPOSTOR_DOMAIN);
      await p.getByRole('button', { name: 'Register institution' }).click();
      await toast(p, 'Institution Registered');
      await expect.poll(() => p.getByTestId('issuer-status').first().getAttribute('data-status')).toBe('pending');
      expect(await p.getByTestId('issuer-status-text').textContent()).toContain('Prove your domain first');
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
      // Pending with its domain proven: it waits for the operator only.
      const statusText = await p.getByTestId('issuer-status-text').textContent();
      expect(statusText).toBe('Your domain is proven: waiting for the operator’s approval. Issuing and confirming open once it is approved.');
      expect(statusText).not.toContain('Prove your domain first');
      expect(await p.getByTestId('proof-publish').count()).toBe(0);
      await screenshot(p, 'inst-02-portal-pending-proven');
      a11y['portal-pending'] = await seriousViolations(p);
    });

    it('the operator tells the two apart by domain; Approve is closed for the unproven one, saying why; approving the proven one reaches its open portal without a reload; the audit log links the transaction', async () => {
      const p = operator;
      // The console it landed on at sign-in, opened again now that both have registered.
      await p.goto('/operator');
      const row = issuerRow(p, institutionKey);
      const other = issuerRow(p, impostorKey);
      await visible(row);
      await visible(other);
      // Same name; each row leads with its domain and whether it is proven.
      expect(await row.getByRole('heading', { level: 3 }).innerText()).toMatch(new RegExp(`^${INSTITUTION}\\b`));
      expect(await other.getByRole('heading', { level: 3 }).innerText()).toMatch(new RegExp(`^${INSTITUTION}\\b`));
      await expect.poll(() => words(row.getByTestId('issuer-domain'))).toBe(`${DOMAIN} domain Proven`);
      await expect.poll(() => words(other.getByTestId('issuer-domain'))).toBe(`${IMPOSTOR_DOMAIN} domain Not proven`);
      // Its domain unproven, the other cannot be approved, and the row says why.
      const approveOther = other.getByRole('button', { name: `Approve ${INSTITUTION} (${IMPOSTOR_DOMAIN})` });
      expect(await approveOther.isDisabled()).toBe(true);
      expect(await other.getByTestId('approve-blocked').innerText()).toBe('Approval needs a proven domain: it has not proven its domain yet.');
      expect(await approveOther.getAttribute('aria-describedby')).toBe(await other.getByTestId('approve-blocked').getAttribute('id'));
      await screenshot(p, 'inst-03a-operator-two-institutions');

      // The institution's portal is open (pending, proven) while the operator approves it.
      await expect.poll(() => institution.getByTestId('issuer-status').first().getAttribute('data-status')).toBe('pending');
      const approve = row.getByRole('button', { name: `Approve ${INSTITUTION} (${DOMAIN})` });
      expect(await approve.isDisabled()).toBe(false);
      await approve.click();
      await toast(p, 'Institution Approved');
      await expect.poll(() => row.getByTestId('issuer-status').getAttribute('data-status')).toBe('approved');
      // The portal follows without a reload: approved, and the issue form opens.
      await expect.poll(() => institution.getByTestId('issuer-status').first().getAttribute('data-status'), { timeout: 30_000 }).toBe('approved');
      await visible(institution.getByRole('button', { name: 'Issue certificate' }));
      expect(await institution.getByTestId('issuer-status-text').textContent()).toBe('You can issue certificates and confirm the holders’ requests.');

      // The audit log: the approval with the operator's transaction, a link to the explorer that shows it.
      const approval = p.getByTestId('audit-row').filter({ hasText: 'operator.approve' }).first();
      await visible(approval);
      await visible(p.getByTestId('audit-row').filter({ hasText: 'issuer.register' }));
      expect(await words(approval.getByTestId('audit-details'))).toBe(`Institution: ${INSTITUTION} (${DOMAIN})`);
      await auditTransactionShows(approval, 'set_issuer_status');

      // A fraud revocation needs its note.
      await p.getByRole('button', { name: 'Revoke for fraud' }).click();
      await visible(p.getByText('A certificate ID or public link is required'));
      await visible(p.getByText('A note is required: say what the fraud is'));
      await screenshot(p, 'inst-03-operator-console');
      a11y['operator'] = await seriousViolations(p);
    });

    it('the operator suspends the other institution only after confirming what that does; a toast says it is done', async () => {
      const p = operator;
      const other = issuerRow(p, impostorKey);
      const suspend = other.getByRole('button', { name: `Suspend ${INSTITUTION} (${IMPOSTOR_DOMAIN})` });
      await suspend.click();
      const dialog = p.getByRole('dialog');
      await visible(dialog);
      expect(await dialog.getByRole('heading').first().innerText()).toBe(`Suspend ${INSTITUTION}?`);
      expect(await dialog.innerText()).toContain(IMPOSTOR_DOMAIN);
      expect(await dialog.getByTestId('suspend-consequences').innerText()).toContain('Every certificate it issued or confirmed becomes not valid');
      await screenshot(p, 'inst-03b-suspend-dialog', { fullPage: false });
      a11y['suspend-dialog'] = await seriousViolations(p);
      // Cancel changes nothing.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await gone(dialog);
      expect(await other.getByTestId('issuer-status').getAttribute('data-status')).toBe('pending');
      // Confirmed: suspended, and told so.
      await suspend.click();
      await p.getByRole('dialog').getByRole('button', { name: 'Suspend institution' }).click();
      await toast(p, 'Institution Suspended');
      await gone(p.getByRole('dialog'));
      await expect.poll(() => other.getByTestId('issuer-status').getAttribute('data-status')).toBe('suspended');
      await visible(p.getByTestId('audit-row').filter({ hasText: 'operator.suspend' }));
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
      await p.getByLabel('Expires on (optional)').fill(EXPIRES_ON);
      await p.locator('input[type=file]').setInputFiles(issuedPdf);
      await visible(p.getByText('master-of-engineering.pdf'));
      await p.getByRole('button', { name: 'Issue certificate' }).click();
      await toast(p, 'Certificate Issued');
      const issued = p.getByTestId('issued-row').filter({ hasText: issuedClaims.title });
      await visible(issued);
      await visible(issued.getByRole('link', { name: /Public view/ }));
      // Its expiry, as a date like every other.
      await expect.poll(() => issued.getByTestId('issued-expiry').textContent()).toBe(` · Expires ${longDate(EXPIRES_ON)}`);
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
      // Checked by the platform only: its badge reads so (as its public verdict), never "Verified".
      await p.locator('main [data-testid=status-badge][data-status=platform_checked]').first().waitFor({ timeout: SETTLE_MS });
      expect(await p.locator('main').getByText(/^Verified$/).count()).toBe(0);
      // Checked by the platform only: said so, in those words, and the institution step is no green check.
      await expect
        .poll(() => p.getByTestId('holder-verdict').textContent())
        .toBe(`Checked by Attesta only: the file is intact and its text names the title, institution, program and ${HOLDER}; not confirmed by ${INSTITUTION}. Ask the institution to confirm it (below).`);
      const institutionStep = p.locator('[data-testid=verification-log][data-step=issuer_verification]').first();
      await expect.poll(() => institutionStep.getAttribute('data-tone')).toBe('neutral');
      expect((await institutionStep.innerText()).replace(/\s+/g, ' ')).toContain(`Institution confirmation Not confirmed by ${INSTITUTION}: checked by Attesta only.`);

      // The institution cannot make it its word unasked by issuing the same file to the holder: the
      // portal says so before the wallet signs anything (the program would refuse it too).
      const i = institution;
      await i.goto('/institution');
      await i.getByRole('button', { name: 'Issue certificate' }).click();
      await i.getByLabel('Certificate title').fill(ownClaims.title);
      await i.getByLabel('Program', { exact: true }).fill(ownClaims.program_name);
      await i.getByLabel('Issue date').fill(ownClaims.issue_date);
      const holderAddress = holderKey.publicKey.toBase58();
      await i.getByLabel('Holder’s wallet address').fill(holderAddress);
      await i.locator('input[type=file]').setInputFiles(ownPdf);
      await i.getByRole('button', { name: 'Issue certificate' }).click();
      await toast(i, 'Issuing Failed');
      await visible(i.getByText(`${holderAddress.slice(0, 6)}…${holderAddress.slice(-4)} already added this file; they can ask you to confirm it from its page`).first());
      expect(await i.getByTestId('issued-row').filter({ hasText: ownClaims.title }).count()).toBe(0);
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
      // The claims as they read everywhere: the institution the certificate names, its issue date in words.
      expect(await request.getByTestId('request-institution').innerText()).toBe(`Claimed institution: ${INSTITUTION}`);
      expect(await request.getByTestId('request-institution').getAttribute('data-other')).toBeNull();
      expect(await request.getByTestId('request-institution').getAttribute('data-names-yours')).toBe('true');
      expect(await request.innerText()).toContain(`${ownClaims.program_name} · issued ${longDate(ownClaims.issue_date)} · ${HOLDER}`);
      await screenshot(q, 'inst-06-portal-queue');
      await request.getByRole('button', { name: 'Confirm' }).click();
      await toast(q, 'Certificate Confirmed');

      // The holder's open page (no reload) follows.
      await expect.poll(() => p.getByTestId('request-state').textContent(), { timeout: 20_000 }).toContain(CONFIRMED);
      await expect.poll(() => p.getByTestId('holder-verdict').textContent()).toBe(CONFIRMED);
      expect(await p.getByTestId('holder-verdict').getAttribute('data-confirmed')).toBe('true');
      // Confirmed by an institution whose domain is proven: now, and only now, its badge reads "Verified".
      await expect.poll(() => p.locator('main [data-testid=status-badge]').first().getAttribute('data-status')).toBe('verified');
      expect(await p.locator('main [data-testid=status-badge]').first().innerText()).toBe('Verified');
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
      await p.locator('main [data-testid=status-badge][data-status=platform_checked]').first().waitFor({ timeout: SETTLE_MS });
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
      // A mistyped ID is refused on its field: no dialog, nothing revoked.
      await p.getByLabel('Certificate ID').fill(`${id}x`);
      await p.getByLabel('Note (required)').fill(FRAUD_NOTE);
      await p.getByRole('button', { name: 'Revoke for fraud' }).click();
      await visible(p.getByText('Certificate not found'));
      expect(await p.getByTestId('fraud-confirm').count()).toBe(0);
      // Its public link, pasted whole, names it (as /verification takes it); what it names is shown first.
      await p.getByLabel('Certificate ID').fill(new URL(href!, e2e.server.url).href);
      await p.getByRole('button', { name: 'Revoke for fraud' }).click();
      const confirm = p.getByTestId('fraud-confirm');
      await visible(confirm.getByRole('heading', { name: `Revoke “${ownClaims.title}” for fraud?` }));
      expect(await words(confirm)).toContain(`${id} · ${ownClaims.institution_name} · ${ownClaims.program_name}`);
      expect(await confirm.getByTestId('fraud-confirm-status').textContent()).toBe('verified');
      await screenshot(p, 'inst-11b-operator-fraud-confirm');
      // Cancel revokes nothing.
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await gone(confirm);
      await h.reload();
      await expect.poll(() => h.locator('main [data-testid=status-badge]').first().getAttribute('data-status')).toBe('verified');
      await p.getByRole('button', { name: 'Revoke for fraud' }).click();
      await p.getByTestId('fraud-confirm').getByRole('button', { name: 'Revoke permanently' }).click();
      await toast(p, 'Certificate Revoked');
      // The audit log says what, why, the note, and links the transaction.
      const entry = p.getByTestId('audit-row').filter({ hasText: 'operator.revoke' }).first();
      await visible(entry);
      expect(await entry.getByTestId('audit-target').innerText()).toContain(id);
      expect(await words(entry.getByTestId('audit-details'))).toBe(`Reason: revoked as fraudulent Note: ${FRAUD_NOTE}`);
      await auditTransactionShows(entry, 'revoke_certificate');
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

    it('the portal and the console fit the window from a phone to a desktop (no sideways scrolling)', async () => {
      for (const width of WIDTHS) {
        for (const [p, url, name] of [
          [institution, '/institution', 'inst-10-portal'],
          [operator, '/operator', 'inst-11-operator'],
        ] as const) {
          await p.setViewportSize({ width, height: width < 768 ? 844 : 900 });
          await p.goto(url);
          await visible(p.getByRole('heading', { level: 1 }));
          if (url === '/operator') await visible(p.getByTestId('audit-row'));
          else await visible(p.getByTestId('issued-row'));
          await p.waitForLoadState('networkidle');
          expect(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${url} at ${width} px`).toBeLessThanOrEqual(0);
          await screenshot(p, `${name}-${width}`);
          if (width === 375 || width === 1024) a11y[`${name}-${width}`] = await seriousViolations(p);
        }
      }
    });

    it('has no page errors and no serious or critical axe-core violations', () => {
      expect(errors.flat()).toEqual([]);
      const bad = Object.entries(a11y).filter(([, v]) => v.length);
      expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
    });
  },
);

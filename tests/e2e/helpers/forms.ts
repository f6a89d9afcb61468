// The forms a holder fills: the profile's name (/profile) and the create-certificate form (/certificates/create).
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { CertificateClaims } from './fixtures';

/**
 * Opens the form, fills title, institution, program and issue date (the holder's name is the
 * document's, not the form's), chooses `file` and waits until the form shows it (its size); then
 * submits, unless `submit: false` (a test that must watch the request starts waiting for it first,
 * then clicks 'Create Certificate' itself).
 */
export async function fillCertificateForm(page: Page, claims: CertificateClaims, file: string, { submit = true } = {}) {
  await page.goto('/certificates/create');
  await page.getByLabel('Certificate Title').fill(claims.title);
  await page.getByLabel('Institution Name').fill(claims.institution_name);
  await page.getByLabel('Program Name').fill(claims.program_name);
  await page.getByLabel('Issue Date').fill(claims.issue_date);
  await page.locator('input[type=file]').setInputFiles(file);
  await expect.poll(() => page.getByTestId('selected-file-size').first().textContent(), { timeout: 15_000 }).toMatch(/^\d+\.\d KB$/);
  if (submit) await page.getByRole('button', { name: 'Create Certificate' }).click();
}

/** Saves `name` as the profile's full name on /profile, as a holder does before adding a certificate. */
export async function setProfileName(page: Page, name: string) {
  await page.goto('/profile');
  // The form is filled from the loaded profile: wait for it, so the load does not overwrite the typing
  // (no expect.poll here: the helper also runs in beforeAll).
  await page.waitForFunction(() => !!(document.getElementById('wallet_address') as HTMLInputElement | null)?.value, undefined, { timeout: 15_000 });
  await page.getByLabel('Full Name').fill(name);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.locator('[data-sonner-toast]').filter({ hasText: 'Profile Updated' }).first().waitFor({ timeout: 15_000 });
}

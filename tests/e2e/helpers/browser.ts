// Debian's Chromium driven by playwright-core (STACK.md: `npx playwright install` cannot download here).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './server';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Whether the browser tests can run here (helpers/e2e.ts skips them without it, and fails them in CI). */
export const HAS_CHROMIUM = fs.existsSync(CHROMIUM);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // No internet here: names other than this machine's fail at once (fonts, explorers) instead of
      // hanging. Done in the resolver, not with request interception, which would turn the HTTP cache off.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    ],
  });
}

export const SCREENSHOT_DIR = path.join(ROOT, 'screenshots');

/**
 * Saves `screenshots/<name>.png`: the whole page, or with `{ fullPage: false }` what the viewport shows
 * (fixed elements such as the floating dock are drawn where the user sees them only in the latter).
 */
export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: opts.fullPage ?? true });
}

/** Collects page errors so a test can assert the app logged none. */
export function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

/**
 * A browser context as a user has one: the HTTP cache on (no request interception here; a test that
 * must fake a response routes only its own page), so reloads and revisits are revalidated as in life.
 */
export async function newContext(browser: Browser, baseURL: string, opts: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL, ...opts });
}

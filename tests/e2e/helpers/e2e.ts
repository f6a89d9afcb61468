// The lifecycle every browser test file shares: the app built, the real product (`npm start` on a
// temporary data dir) or app/dist on a static server, Debian's Chromium, and contexts as a user has
// them (HTTP cache on: no context-wide request interception). Without Chromium the suite is skipped,
// except in CI (`CI` set), where it fails: a browser suite skipped in silence would hide everything.
import path from 'node:path';
import type { Keypair } from '@solana/web3.js';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { CHROMIUM, HAS_CHROMIUM, launchBrowser, newContext } from './browser';
import { ensureBuilt, ROOT, startServer, type RunningServer } from './server';
import { serveStatic, type StaticServer } from './static-server';
import { injectDevWallet } from './wallet';

export interface E2EOptions {
  /** Environment of the real server (demo data off unless set here). */
  env?: Record<string, string>;
  /** `static`: app/dist on a static server with no API behind it (/trpc answers 404), instead of the real server. */
  app?: 'server' | 'static';
  /** Defaults of every context() and page(). */
  viewport?: { width: number; height: number };
  /** Dismiss the development notice in every context (default: shown, as to a first-time visitor). */
  dismissDevNotice?: boolean;
  /** Time for building the app and starting the server and the browser (ms). */
  timeout?: number;
}

export interface ContextOptions extends BrowserContextOptions {
  /** The development wallet's key, in place before the app runs (none by default: a visitor has no wallet). */
  devWallet?: Keypair;
  /** A session cookie (`attesta_session`) for the context's origin: signed in without the wallet UI. */
  session?: string;
  dismissDevNotice?: boolean;
}

export interface E2E<S> {
  /** The server under test (started before the suite's own beforeAll hooks run). */
  readonly server: S;
  readonly browser: Browser;
  /** A new context with the suite's defaults; its base URL is the server's unless `baseURL` says otherwise. */
  context(opts?: ContextOptions): Promise<BrowserContext>;
  /** A page in a new context(). */
  page(opts?: ContextOptions): Promise<Page>;
}

/**
 * `describe` for a browser suite: registers the lifecycle hooks (first, so the suite's own hooks
 * see a running server and browser, and its own afterAll hooks run before both are stopped) and
 * hands `fn` the fixture.
 */
export function describeE2E(name: string, opts: E2EOptions & { app: 'static' }, fn: (e2e: E2E<StaticServer>) => void): void;
export function describeE2E(name: string, opts: E2EOptions, fn: (e2e: E2E<RunningServer>) => void): void;
export function describeE2E(name: string, opts: E2EOptions, fn: (e2e: E2E<never>) => void): void {
  // The overloads tie the server's type to `opts.app`.
  describe.skipIf(!HAS_CHROMIUM && !process.env.CI)(name, () => fn(useE2E(opts) as E2E<never>));
}

function useE2E(opts: E2EOptions): E2E<RunningServer | StaticServer> {
  let server: RunningServer | StaticServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!HAS_CHROMIUM) throw new Error(`No Chromium at ${CHROMIUM} (set CHROMIUM_PATH): the browser tests cannot run, and in CI they must. Install Debian's chromium (.ci/run does).`);
    ensureBuilt();
    server = opts.app === 'static' ? await serveStatic(path.join(ROOT, 'app/dist')) : await startServer(opts.env);
    browser = await launchBrowser();
  }, opts.timeout ?? 240_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    if (server) await ('stop' in server ? server.stop() : server.close());
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The ${what} is not started yet: use it in a test or a hook, not while the suite is collected.`);
    return value;
  };

  const e2e: E2E<RunningServer | StaticServer> = {
    get server() {
      return started(server, 'server');
    },
    get browser() {
      return started(browser, 'browser');
    },
    async context({ devWallet, session, dismissDevNotice = opts.dismissDevNotice, ...options }: ContextOptions = {}) {
      const baseURL = options.baseURL ?? e2e.server.url;
      const context = await newContext(e2e.browser, baseURL, { ...(opts.viewport && { viewport: opts.viewport }), ...options });
      if (dismissDevNotice) await context.addInitScript(() => localStorage.setItem('dev-notification', 'dismissed'));
      if (devWallet) await injectDevWallet(context, devWallet);
      if (session) await context.addCookies([{ name: 'attesta_session', value: session, url: baseURL }]);
      return context;
    },
    async page(options?: ContextOptions) {
      return (await e2e.context(options)).newPage();
    },
  };
  return e2e;
}

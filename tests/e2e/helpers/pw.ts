// playwright-core has no test matchers; these wait like Playwright's web-first assertions do.
import { expect } from 'vitest';
import type { Locator } from 'playwright-core';

export const visible = (l: Locator, timeout = 15_000) => l.first().waitFor({ state: 'visible', timeout });
export const gone = (l: Locator, timeout = 15_000) => expect.poll(() => l.count(), { timeout }).toBe(0);

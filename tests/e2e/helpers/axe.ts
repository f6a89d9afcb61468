// axe-core run inside the page; returns the serious and critical violations only.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Judge the page at rest: a transition in flight (a stacked toast fading its text out over 400 ms)
  // has colours no reader is meant to read, and axe measured its contrast mid-fade once. Endless
  // animations (spinners) never settle and do not change colours.
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { timeout: 10_000 },
  );
  // Evaluated through the DevTools protocol, not an inline <script>: the server's Content-Security-Policy
  // (script-src 'self') blocks inline scripts added to its pages.
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    // And keep it at rest while axe runs (a second or more on a busy machine): a transition that starts
    // meanwhile (a toast timing out and fading) ends at once instead of being measured halfway. A
    // constructed style sheet, since the page's CSP (style-src 'self') refuses inline <style>.
    const still = new CSSStyleSheet();
    still.replaceSync('*, *::before, *::after { transition-duration: 0s !important; transition-delay: 0s !important; animation-duration: 0s !important; animation-delay: 0s !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, still];
    // A transition that began after the wait above (a toast arriving while axe was being loaded) runs
    // on with the duration it started with: end it, so nothing is measured halfway (a CI run once
    // measured a toast's title mid-fade).
    for (const a of document.getAnimations()) if (a.effect?.getComputedTiming().endTime !== Infinity) a.finish();
    try {
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== still);
    }
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

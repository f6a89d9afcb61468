// Geometry of the floating controls (feedback, support chat, development notice) against the page:
// nothing floating may lie over content or controls, at any width and scroll position.
import type { Page } from 'playwright-core';

export interface FloatingReport {
  problems: string[];
  /** How many interactive elements and card contents were checked. */
  checked: number;
  dock: { top: number; left: number; right: number; height: number } | null;
}

/**
 * Checks, at the current scroll position, that:
 * - every floating control lies inside the dock (the opaque strip at the bottom of the viewport) and
 *   does not overlap another floating control;
 * - the dock is opaque and on top: hit-testing points across it finds only the dock, so no content or
 *   control shows (or can be clicked) in it;
 * - no interactive element or card content that is visible (hit-testing its own centre finds it) has
 *   its visible part under a floating control;
 * - the dock does not cover the desktop sidebar;
 * - with `atEnd`, the page's last content ends above the dock (the page scrolls clear of it).
 */
export function checkFloating(page: Page, opts: { atEnd?: boolean } = {}): Promise<FloatingReport> {
  return page.evaluate(({ atEnd }) => {
    const problems: string[] = [];
    const dock = document.querySelector<HTMLElement>('[data-testid=floating-dock]');
    if (!dock) return { problems: ['no floating dock'], checked: 0, dock: null };
    const d = dock.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const name = (e: Element) => `${e.tagName.toLowerCase()}${e.getAttribute('data-testid') ? `[${e.getAttribute('data-testid')}]` : ''}${e.getAttribute('aria-label') ? `(${e.getAttribute('aria-label')})` : ''} "${(e.textContent ?? '').trim().slice(0, 40)}"`;
    const intersect = (a: DOMRect, b: DOMRect) => {
      const x = Math.max(a.left, b.left);
      const y = Math.max(a.top, b.top);
      const w = Math.min(a.right, b.right) - x;
      const h = Math.min(a.bottom, b.bottom) - y;
      return w > 0.5 && h > 0.5 ? { x, y, w, h } : null;
    };

    if (Math.abs(d.bottom - vh) > 1) problems.push(`the dock is not at the bottom of the viewport (${d.bottom} vs ${vh})`);
    const bg = getComputedStyle(dock).backgroundColor;
    const alpha = /\/\s*([\d.]+%?)\s*\)$/.exec(bg)?.[1] ?? /^rgba\([^,]+,[^,]+,[^,]+,\s*([\d.]+)\)$/.exec(bg)?.[1] ?? '1';
    if (parseFloat(alpha) < 1 || bg === 'transparent') problems.push(`the dock is not opaque (${bg})`);

    const floats = ['feedback-launcher', 'chat-launcher', 'dev-banner']
      .map((id) => document.querySelector<HTMLElement>(`[data-testid=${id}]`))
      .filter((e): e is HTMLElement => !!e && e.getClientRects().length > 0);
    for (const f of floats) {
      const r = f.getBoundingClientRect();
      if (r.top < d.top - 0.5 || r.bottom > d.bottom + 0.5 || r.left < d.left - 0.5 || r.right > d.right + 0.5) problems.push(`${name(f)} is outside the dock`);
      if (r.left < -0.5 || r.right > vw + 0.5) problems.push(`${name(f)} is cut off at the viewport's edge`);
    }
    for (let i = 0; i < floats.length; i++)
      for (let j = i + 1; j < floats.length; j++)
        if (intersect(floats[i].getBoundingClientRect(), floats[j].getBoundingClientRect())) problems.push(`${name(floats[i])} overlaps ${name(floats[j])}`);
    // The notice's own icon and dismiss button are not covered (the reported bug: feedback over its icon).
    for (const el of document.querySelectorAll<HTMLElement>('[data-testid=dev-banner] svg, [data-testid=dev-banner] button')) {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(el === hit || el.contains(hit) || hit.contains(el))) problems.push(`the development notice's ${el.tagName.toLowerCase()} is covered by ${hit ? name(hit) : 'nothing'}`);
    }

    // Hit-test a grid across the dock: only the dock (or what it holds) may be found there.
    for (let gx = 1; gx < 12; gx++) {
      for (const gy of [0.15, 0.5, 0.85]) {
        const x = d.left + (d.width * gx) / 12;
        const y = d.top + d.height * gy;
        if (x < 0 || x >= vw) continue;
        const hit = document.elementFromPoint(x, y);
        if (hit && !dock.contains(hit)) problems.push(`${name(hit)} shows through the dock at (${Math.round(x)}, ${Math.round(y)})`);
      }
    }

    const sidebar = document.querySelector<HTMLElement>('[data-slot=sidebar-container]');
    if (sidebar && sidebar.getClientRects().length) {
      const s = sidebar.getBoundingClientRect();
      if (s.width > 1 && s.right > 0 && d.left < s.right - 0.5) problems.push(`the dock (left ${d.left}) covers the sidebar (right ${s.right})`);
    }

    const targets = [
      ...document.querySelectorAll<HTMLElement>(
        'a[href], button, input, select, textarea, summary, [role=button], [role=tab], [role=link], [role=checkbox], [tabindex]:not([tabindex="-1"]), [data-slot=card] p, [data-slot=card] h2, [data-slot=card] h3, [data-slot=card] dd, [data-slot=card] li, [data-slot=card] code, [data-slot=card] img, [data-slot=card] svg',
      ),
    ].filter((e) => !dock.contains(e) && e.getClientRects().length > 0 && !e.closest('[data-slot=sidebar-container], [role=dialog], [data-sonner-toaster]'));
    let checked = 0;
    for (const e of targets) {
      const r = e.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.top >= vh || r.right <= 0 || r.left >= vw) continue;
      // Its visible part: above the dock (the dock is opaque and on top, checked above).
      const visible = new DOMRect(r.left, r.top, r.width, Math.min(r.bottom, d.top) - r.top);
      if (visible.height <= 0) continue;
      checked++;
      for (const f of floats) {
        const o = intersect(visible, f.getBoundingClientRect());
        if (o) problems.push(`${name(f)} covers ${name(e)}`);
      }
      if (atEnd && r.bottom > d.top + 0.5 && window.scrollY + vh >= document.documentElement.scrollHeight - 1) problems.push(`${name(e)} stays under the dock at the end of the page (bottom ${Math.round(r.bottom)} > ${Math.round(d.top)})`);
    }
    return { problems, checked, dock: { top: d.top, left: d.left, right: d.right, height: d.height } };
  }, { atEnd: opts.atEnd ?? false });
}

/** Checks at the top, the middle and the end of the page. */
export async function checkFloatingWhileScrolling(page: Page): Promise<{ problems: string[]; checked: number }> {
  const problems: string[] = [];
  let checked = 0;
  for (const where of ['top', 'middle', 'end'] as const) {
    await page.evaluate((w) => {
      const max = document.documentElement.scrollHeight - window.innerHeight;
      window.scrollTo({ top: w === 'top' ? 0 : w === 'middle' ? Math.round(max / 2) : max, behavior: 'instant' as ScrollBehavior });
    }, where);
    await page.waitForTimeout(80);
    const r = await checkFloating(page, { atEnd: where === 'end' });
    problems.push(...r.problems.map((p) => `${where}: ${p}`));
    checked += r.checked;
  }
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' as ScrollBehavior }));
  return { problems, checked };
}

// The JavaScript budgets of npm run bench:app, held in the suite so a regression cannot land unnoticed:
// verifier routes (/view, /verification) ≤ 140 kB gzip and free of wallet code, signed-in routes ≤ 220 kB.
// Measured on the production build the browser tests serve (built here when missing or stale).
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgetProblem, BUDGETS_KB, measureRoutes, ROUTES, type RouteSize } from '../bench/app-size';
import { ensureBuilt } from '../e2e/helpers/server';

const dist = process.env.APP_DIST_DIR ? path.resolve(process.env.APP_DIST_DIR) : path.resolve(import.meta.dirname, '../../app/dist');

describe('JavaScript per route (gzip)', () => {
  let rows: RouteSize[] = [];
  beforeAll(() => {
    ensureBuilt();
    rows = measureRoutes(dist).rows;
  }, 300_000);

  it('finds every route chunk in the build (a renamed page would otherwise measure the entry only)', () => {
    expect(rows.map((r) => r.route)).toEqual(ROUTES.map((r) => r.route));
    for (const r of rows) expect(r.missing, r.route).toEqual([]);
  });

  it(`verifier routes stay within ${BUDGETS_KB.verifier} kB and load no wallet code`, () => {
    const verifier = rows.filter((r) => r.budget === 'verifier');
    expect(verifier.map((r) => r.route)).toEqual(['/view/:userId/:certificateId', '/verification (visitor)']);
    for (const r of verifier) expect(budgetProblem(r), r.route).toBeNull();
  });

  it(`signed-in routes stay within ${BUDGETS_KB.signedIn} kB`, () => {
    const signedIn = rows.filter((r) => r.budget === 'signedIn');
    expect(signedIn.length).toBe(7);
    for (const r of signedIn) expect(budgetProblem(r), r.route).toBeNull();
  });

  it('budgetProblem flags a route over its budget, a verifier route with wallet code, and a missing chunk', () => {
    const base: RouteSize = { route: '/x', kb: 100, files: 3, wallet: false, budget: 'verifier', budgetKb: 140, missing: [], own: [] };
    expect(budgetProblem(base)).toBeNull();
    expect(budgetProblem({ ...base, kb: 140.1 })).toBe('140.1 kB is over the 140 kB budget');
    expect(budgetProblem({ ...base, wallet: true })).toBe('loads wallet code');
    expect(budgetProblem({ ...base, budget: 'signedIn', budgetKb: 220, wallet: true })).toBeNull();
    expect(budgetProblem({ ...base, missing: ['features/x/X.tsx'] })).toBe('chunk not found: features/x/X.tsx');
  });
});

// API keys on the profile page and the OpenAPI-driven /api page, in a real browser against the real
// server (`npm start` on a temporary data dir).
import { expect, it } from 'vitest';
import { restUser } from '../../server/test/rest-support/server';
import { seriousViolations } from './helpers/axe';
import { screenshot, watchErrors } from './helpers/browser';
import { describeE2E } from './helpers/e2e';

describeE2E('API keys and the API page in a real browser', {}, (e2e) => {
  it('creates an API key shown once, shows its use, and revokes it', { timeout: 120_000 }, async () => {
    const user = await restUser(e2e.server.url);
    const page = await e2e.page({ permissions: ['clipboard-read', 'clipboard-write'], session: user.jar.get('attesta_session')! });
    const errors = watchErrors(page);

    await page.goto('/profile');
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    await page.getByText('No API keys yet.').waitFor();
    await page.getByRole('button', { name: 'Create API Key' }).click();
    await page.getByText('A name is required').waitFor();
    await page.getByLabel('Key name').fill('HR system');
    await page.getByRole('button', { name: 'Create API Key' }).click();
    const keyInput = page.getByRole('textbox', { name: 'New API key' });
    await keyInput.waitFor();
    const key = await keyInput.inputValue();
    expect(key).toMatch(/^atst_[a-z0-9]{8}_[A-Za-z0-9]{43}$/);
    await page.getByRole('button', { name: 'Copy API key' }).click();
    await page.locator('[data-sonner-toast]', { hasText: 'Copied to clipboard' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, 'api-key-created');
    await page.getByRole('button', { name: 'Done' }).click();

    // Shown once: afterwards only the prefix is on the page.
    const row = page.getByTestId('api-key-row');
    await row.waitFor();
    expect(await row.innerText()).toContain(key.slice(0, 13));
    expect(await row.innerText()).toContain('Last used Never');
    expect(await page.content()).not.toContain(key.slice(14));

    const auth = { authorization: `Bearer ${key}` };
    expect((await fetch(`${e2e.server.url}/api/v1/certificates`, { headers: auth })).status).toBe(200);
    await page.reload();
    await row.waitFor();
    expect(await row.innerText()).not.toContain('Last used Never');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Revoke HR system' }).click();
    await page.getByRole('heading', { name: 'Revoke API key?' }).waitFor();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByText('No API keys yet.').waitFor();
    const revoked = await fetch(`${e2e.server.url}/api/v1/certificates`, { headers: auth });
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).error.message).toBe('This API key has been revoked');
    expect(errors).toEqual([]);
  });

  it('lists the served OpenAPI endpoints on the /api page, also when loaded directly', { timeout: 60_000 }, async () => {
    const direct = await fetch(`${e2e.server.url}/api`);
    expect(direct.headers.get('content-type')).toMatch(/text\/html/);
    const unknown = await fetch(`${e2e.server.url}/api/v1/nope`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe('not_found');

    // Every operation the server documents under /api/v1 is a card (the institutions' endpoints included).
    const spec = (await (await fetch(`${e2e.server.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, ops]) => Object.keys(ops).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations).toContain('POST /api/v1/issuer/certificates');
    expect(operations.length).toBeGreaterThanOrEqual(17);

    const page = await e2e.page();
    await page.goto('/api');
    const cards = page.locator('[data-testid="api-endpoint"]');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="api-endpoint"]').length === n, operations.length);
    await page.getByPlaceholder(/search/i).fill('/api/v1/issuer/requests');
    await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(1);
    await page.getByPlaceholder(/search/i).fill('');
    await page.getByRole('tab', { name: 'Authentication' }).click();
    await expect.poll(() => cards.count()).toBe(3);
    await page.getByRole('tab', { name: 'NFT Minting' }).click();
    await expect.poll(() => cards.count()).toBe(1);
    // The institutions' endpoints are their own group (the document's "Institutions" tag), with its
    // description, and no longer among "Certificates".
    const institution = operations.filter((o) => o.includes(' /api/v1/issuer/'));
    expect(institution.length).toBeGreaterThanOrEqual(7);
    await page.getByRole('tab', { name: 'Institutions' }).click();
    await expect.poll(() => cards.count()).toBe(institution.length);
    await expect(page.getByTestId('api-group-description').innerText()).resolves.toMatch(/For institutions/);
    await page.getByRole('tab', { name: 'Certificates' }).click();
    await expect.poll(() => cards.count()).toBe(3);
    await expect(page.locator('[data-testid="api-endpoint"]', { hasText: '/api/v1/issuer/' }).count()).resolves.toBe(0);
    await page.getByRole('tab', { name: 'Institutions' }).click();
    await screenshot(page, 'api-page-openapi');
  });
});

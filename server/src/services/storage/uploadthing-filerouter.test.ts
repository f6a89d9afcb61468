/**
 * The fake UploadThing also drives the SDK's FileRouter flow (browser-direct uploads): presigned
 * URLs from createRouteHandler, /route-metadata, a signed `uploadthing-hook: callback` to the app,
 * and /callback-result. This proves the fake signs callbacks the way the real SDK verifies them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRouteHandler, createUploadthing, type FileRouter } from 'uploadthing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUploadThing, type FakeUploadThing } from '../../../test/fakes/uploadthing-server.js';

describe('UploadThing FileRouter flow against the fake', () => {
  let fake: FakeUploadThing;
  let app: Server;
  let appUrl: string;
  const completed: Array<{ key: string; name: string; metadata: unknown }> = [];

  beforeAll(async () => {
    fake = await startFakeUploadThing();
    const f = createUploadthing();
    const router = {
      certificate: f({ pdf: { maxFileSize: '16MB' } })
        .middleware(() => ({ wallet: 'Wallet111' }))
        .onUploadComplete(({ file, metadata }) => {
          completed.push({ key: file.key, name: file.name, metadata });
          return { stored: file.key };
        }),
    } satisfies FileRouter;
    // Serve the handler over real HTTP so the fake's callback is a real request.
    app = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const request = new Request(`${appUrl}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
      });
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    const handler = createRouteHandler({
      router,
      config: { token: fake.token, ingestUrl: fake.url, isDev: false, callbackUrl: `${appUrl}/api/uploadthing`, logLevel: 'None' },
    });
  });

  afterAll(async () => {
    await fake.close();
    app.closeAllConnections();
    await new Promise((r) => app.close(r));
  });

  it('presigns, uploads to the ingest, calls the app back and returns its serverData', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7\nfake certificate\n%%EOF\n');
    const presign = await fetch(`${appUrl}/api/uploadthing?actionType=upload&slug=certificate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-uploadthing-package': 'test' },
      body: JSON.stringify({ files: [{ name: 'cert.pdf', size: bytes.length, type: 'application/pdf', lastModified: 1 }], input: undefined }),
    });
    expect(presign.status).toBe(200);
    const [p] = (await presign.json()) as Array<{ url: string; key: string }>;
    expect(p.url).toContain(`${fake.url}/${p.key}?`);
    expect(fake.log.some((l) => l.path === '/route-metadata' && l.status === 200)).toBe(true);

    const fd = new FormData();
    fd.append('file', new Blob([bytes], { type: 'application/pdf' }), 'cert.pdf');
    const put = await fetch(p.url, { method: 'PUT', body: fd });
    expect(put.status).toBe(200);
    const body = (await put.json()) as { ufsUrl: string; serverData: unknown };
    expect(body.serverData).toEqual({ stored: p.key });
    expect(completed).toEqual([{ key: p.key, name: 'cert.pdf', metadata: { wallet: 'Wallet111' } }]);
    expect(Buffer.from(await (await fetch(body.ufsUrl)).arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('the app refuses a callback whose signature is not from the API key', async () => {
    const res = await fetch(`${appUrl}/api/uploadthing?slug=certificate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'uploadthing-hook': 'callback', 'x-uploadthing-signature': 'hmac-sha256=' + '0'.repeat(64) },
      body: JSON.stringify({ status: 'uploaded', metadata: {}, origin: fake.url, file: {} }),
    });
    expect(res.status).toBe(400);
    expect(completed).toHaveLength(1);
  });
});

/**
 * A fake UploadThing (ingest + REST API + file host) on 127.0.0.1, speaking the wire protocol that
 * the real `uploadthing` 7.7 SDK uses, so the UploadThing adapter is tested offline for real:
 *
 * - `PUT /<fileKey>?expires&x-ut-*&signature=hmac-sha256=<hex>`: multipart body with field `file`.
 *   The signature is HMAC-SHA256(apiKey, the URL up to `&signature=`) and is verified, as are the
 *   expiry, the app id and the declared size. Answers `{url, appUrl, ufsUrl, fileHash, serverData}`.
 * - `POST /route-metadata`, `POST /callback-result` (FileRouter flow, non-dev mode): after an upload
 *   whose key was registered, the fake calls the app's callbackUrl with a signed
 *   `uploadthing-hook: callback` request, like the real ingest.
 * - `POST /v6/listFiles`, `/v6/deleteFiles`, `/v6/getFileUrl` with `x-uploadthing-api-key`.
 * - `GET|HEAD /f/<key|customId>` and `/a/<appId>/<key|customId>`: the stored bytes.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeFile {
  key: string;
  customId: string | null;
  name: string;
  size: number;
  type: string;
  bytes: Uint8Array;
  uploadedAt: number;
  fileHash: string;
}

export interface FakeUploadThing {
  /** Base URL: use as apiUrl, ingestUrl and file host. */
  url: string;
  token: string;
  apiKey: string;
  appId: string;
  files: Map<string, FakeFile>;
  /** Every request seen, with the status the fake answered. */
  log: Array<{ method: string; path: string; status: number; reason?: string }>;
  close(): Promise<void>;
}

interface RouteMetadata {
  metadata: unknown;
  callbackUrl: string;
  callbackSlug: string;
  awaitServerData: boolean;
}

export function makeUploadThingToken(apiKey: string, appId: string): string {
  return Buffer.from(JSON.stringify({ apiKey, appId, regions: ['fake-region'], ingestHost: 'ingest.invalid' })).toString('base64');
}

export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export async function startFakeUploadThing(opts: { apiKey?: string; appId?: string } = {}): Promise<FakeUploadThing> {
  const apiKey = opts.apiKey ?? 'sk_test_fake_' + createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 24);
  const appId = opts.appId ?? 'fakeapp123';
  const files = new Map<string, FakeFile>();
  const routeMetadata = new Map<string, RouteMetadata>();
  const serverData = new Map<string, { resolve: (v: unknown) => void; promise: Promise<unknown> }>();
  const log: FakeUploadThing['log'] = [];
  let base = '';

  const fileUrl = (key: string) => `${base}/f/${key}`;
  const findFile = (id: string) => files.get(id) ?? [...files.values()].find((f) => f.customId === id);
  const waiter = (key: string) => {
    let w = serverData.get(key);
    if (!w) {
      let resolve!: (v: unknown) => void;
      const promise = new Promise<unknown>((r) => (resolve = r));
      w = { resolve, promise };
      serverData.set(key, w);
    }
    return w;
  };

  function send(res: ServerResponse, req: IncomingMessage, status: number, body: unknown, reason?: string): void {
    log.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0], status, reason });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  async function readBody(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  function verifyUrlSignature(fullUrl: string): string | null {
    const at = fullUrl.lastIndexOf('&signature=');
    if (at === -1) return 'missing signature';
    const payload = fullUrl.slice(0, at);
    const sig = decodeURIComponent(fullUrl.slice(at + '&signature='.length));
    if (!sig.startsWith('hmac-sha256=')) return 'bad signature format';
    const given = Buffer.from(sig.slice('hmac-sha256='.length), 'hex');
    const expected = Buffer.from(hmacHex(apiKey, payload), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid signature';
    return null;
  }

  async function handleIngestPut(req: IncomingMessage, res: ServerResponse, key: string): Promise<void> {
    const full = `${base}${req.url}`;
    const bad = verifyUrlSignature(full);
    if (bad) return send(res, req, 403, { error: bad }, bad);
    const u = new URL(full);
    // The SDK URI-encodes each value before URLSearchParams encodes it again.
    const param = (name: string) => {
      const v = u.searchParams.get(name);
      return v == null ? null : decodeURIComponent(v);
    };
    if (Number(param('expires')) < Date.now()) return send(res, req, 403, { error: 'URL expired' }, 'expired');
    if (param('x-ut-identifier') !== appId) return send(res, req, 403, { error: 'wrong app' }, 'wrong app');
    const body = await readBody(req);
    const form = await new Request('http://fake/', {
      method: 'PUT',
      headers: { 'content-type': String(req.headers['content-type'] ?? '') },
      body: new Uint8Array(body),
    }).formData();
    const file = form.get('file');
    if (!(file instanceof Blob)) return send(res, req, 400, { error: 'multipart field "file" missing' }, 'no file');
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (String(bytes.length) !== param('x-ut-file-size')) return send(res, req, 400, { error: 'size mismatch' }, 'size mismatch');
    const customId = param('x-ut-custom-id');
    if (customId && [...files.values()].some((f) => f.customId === customId)) {
      return send(res, req, 409, { error: `customId ${customId} already exists` }, 'duplicate customId');
    }
    const stored: FakeFile = {
      key,
      customId,
      name: param('x-ut-file-name') ?? key,
      size: bytes.length,
      type: param('x-ut-file-type') ?? 'application/octet-stream',
      bytes,
      uploadedAt: Date.now(),
      fileHash: createHash('sha256').update(bytes).digest('hex'),
    };
    files.set(key, stored);

    let data: unknown = null;
    const route = routeMetadata.get(key);
    if (route) {
      const payload = JSON.stringify({
        status: 'uploaded',
        metadata: route.metadata,
        origin: base,
        file: { name: stored.name, size: stored.size, type: stored.type, customId, lastModified: stored.uploadedAt, key, url: fileUrl(key), appUrl: fileUrl(key), ufsUrl: fileUrl(key), fileHash: stored.fileHash },
      });
      const cb = new URL(route.callbackUrl);
      cb.searchParams.set('slug', route.callbackSlug);
      const r = await fetch(cb, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'uploadthing-hook': 'callback', 'x-uploadthing-signature': `hmac-sha256=${hmacHex(apiKey, payload)}` },
        body: payload,
      });
      if (!r.ok) return send(res, req, 502, { error: `callback failed with ${r.status}` }, 'callback failed');
      if (route.awaitServerData) {
        data = await Promise.race([waiter(key).promise, new Promise((r2) => setTimeout(() => r2(null), 5000))]);
      }
    }
    send(res, req, 200, { url: fileUrl(key), appUrl: fileUrl(key), ufsUrl: fileUrl(key), fileHash: stored.fileHash, serverData: data });
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.headers['x-uploadthing-api-key'] !== apiKey) return send(res, req, 401, { error: 'Invalid API key' }, 'api key');
    let json: Record<string, unknown>;
    try {
      json = JSON.parse((await readBody(req)).toString('utf8') || '{}');
    } catch {
      return send(res, req, 400, { error: 'Invalid JSON' }, 'json');
    }
    const ids = (): string[] => ((json.fileKeys ?? json.customIds ?? []) as string[]);
    const byCustomId = Array.isArray(json.customIds);
    const match = (f: FakeFile, id: string) => (byCustomId ? f.customId === id : f.key === id);
    switch (path) {
      case '/v6/listFiles': {
        const all = [...files.values()].sort((a, b) => a.uploadedAt - b.uploadedAt);
        const offset = Number(json.offset ?? 0);
        const limit = Number(json.limit ?? 500);
        const page = all.slice(offset, offset + limit);
        return send(res, req, 200, {
          hasMore: offset + limit < all.length,
          files: page.map((f) => ({ id: f.key, customId: f.customId, key: f.key, name: f.name, size: f.size, status: 'Uploaded', uploadedAt: f.uploadedAt })),
        });
      }
      case '/v6/deleteFiles': {
        let deletedCount = 0;
        for (const id of ids()) for (const f of [...files.values()]) if (match(f, id)) (files.delete(f.key), deletedCount++);
        return send(res, req, 200, { success: true, deletedCount });
      }
      case '/v6/getFileUrl': {
        const data = ids().flatMap((id) => [...files.values()].filter((f) => match(f, id)).map((f) => ({ key: f.key, url: fileUrl(f.key) })));
        return send(res, req, 200, { data });
      }
      case '/route-metadata': {
        if (json.isDev) return send(res, req, 400, { error: 'the fake supports non-dev mode only (set isDev: false)' }, 'dev mode');
        for (const key of json.fileKeys as string[]) {
          routeMetadata.set(key, {
            metadata: json.metadata,
            callbackUrl: String(json.callbackUrl),
            callbackSlug: String(json.callbackSlug),
            awaitServerData: json.awaitServerData !== false,
          });
        }
        return send(res, req, 200, { ok: true });
      }
      case '/callback-result': {
        waiter(String(json.fileKey)).resolve(json.callbackData ?? null);
        return send(res, req, 200, { ok: true });
      }
      default:
        return send(res, req, 404, { error: `unknown endpoint ${path}` }, 'unknown');
    }
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const go = async () => {
      if (req.method === 'POST') return handleApi(req, res, path);
      if (req.method === 'GET' || req.method === 'HEAD') {
        const m = /^\/(?:f|a\/[^/]+)\/([^/]+)$/.exec(path);
        const f = m ? findFile(decodeURIComponent(m[1])) : undefined;
        if (!f) return send(res, req, 404, { error: 'Not found' }, 'not found');
        log.push({ method: req.method, path, status: 200 });
        res.writeHead(200, { 'content-type': f.type, 'content-length': f.size });
        return res.end(req.method === 'HEAD' ? undefined : Buffer.from(f.bytes));
      }
      if (req.method === 'PUT' && /^\/[^/]+$/.test(path)) return handleIngestPut(req, res, decodeURIComponent(path.slice(1)));
      return send(res, req, 405, { error: 'method not allowed' }, 'method');
    };
    go().catch((err) => send(res, req, 500, { error: String(err) }, 'crash'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    token: makeUploadThingToken(apiKey, appId),
    apiKey,
    appId,
    files,
    log,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

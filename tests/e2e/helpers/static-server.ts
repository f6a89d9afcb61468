// A tiny static server for app/dist with the SPA fallback (every unknown path gets index.html),
// listening on an ephemeral port. No API behind it: /trpc requests get 404, like a server that is down.
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

export interface StaticServer {
  url: string;
  close: () => Promise<void>;
}

export async function serveStatic(root: string): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path.startsWith('/trpc') || path.startsWith('/api/v') || path === '/api/openapi.json') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    let file = join(base, normalize(path));
    if (!file.startsWith(base)) {
      res.writeHead(403).end();
      return;
    }
    const isFile = await stat(file).then((s) => s.isFile()).catch(() => false);
    if (!isFile) file = join(base, 'index.html');
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

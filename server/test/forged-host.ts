// Requests with a Host header of our choosing (fetch always sends the URL's own host, so this goes
// through node:http): what a phishing site relaying to the server, or anyone with curl, can send.
import http from 'node:http';

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export function send(baseUrl: string, method: 'GET' | 'POST', path: string, opts: { host?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers };
    if (opts.host !== undefined) headers.host = opts.host;
    const req = http.request(`${baseUrl}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end(opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
  });
}

/** tRPC over raw HTTP: a mutation (POST, input as the body) or a query (GET, input in the URL). */
export const trpcMutation = (baseUrl: string, proc: string, input: unknown, opts: { host?: string; headers?: Record<string, string> } = {}) =>
  send(baseUrl, 'POST', `/trpc/${proc}`, { ...opts, body: input });
export const trpcQuery = (baseUrl: string, proc: string, input: unknown, opts: { host?: string; headers?: Record<string, string> } = {}) =>
  send(baseUrl, 'GET', `/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`, opts);

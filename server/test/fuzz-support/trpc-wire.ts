// tRPC over raw HTTP, the way the app's links put it on the wire (no transformer): queries as
// GET ?input=<json>, mutations as POST <json>, uploads as POST multipart, subscriptions as SSE.
import { expect } from 'vitest';
import { fetchT } from './harness';

/** What a tRPC answer may be: success, or an error the caller can act on. Never a 5xx. */
export const TRPC_STATUSES = new Set([200, 207, 400, 401, 403, 404, 405, 409, 411, 413, 414, 415, 429, 431]);
/** Refused by the HTTP layer before tRPC (URL or headers over Node's/fastify's limits): fastify's error JSON. */
export const TRANSPORT_STATUSES = new Set([414, 431]);

export interface WireResult {
  status: number;
  /** Parsed JSON body (array for batches); for SSE, the first event's data. */
  body: unknown;
  /** SSE: the first event's name (`serialized-error` for a failed subscription). */
  event?: string;
  text: string;
}

function expectErrorShape(e: unknown, status: number | null, ctx: string) {
  const err = (e as { error?: any })?.error;
  expect(err, `tRPC error envelope: ${ctx}`).toBeTruthy();
  expect(typeof err.message, ctx).toBe('string');
  expect(err.message.trim().length, `an error says what is wrong: ${ctx}`).toBeGreaterThan(0);
  expect(typeof err.code, ctx).toBe('number');
  expect(typeof err.data?.code, ctx).toBe('string');
  expect(err.data.code, ctx).not.toBe('INTERNAL_SERVER_ERROR');
  expect(err.data.httpStatus, ctx).toBeLessThan(500);
  if (status !== null) expect(err.data.httpStatus, ctx).toBe(status);
  expect(err.data.stack, `no stack traces leave the server: ${ctx}`).toBeUndefined();
}

/** Property 1: no 5xx, a JSON body, and the error envelope (with a code and a message) on failures. */
export function expectWellFormed(r: WireResult, ctx: string) {
  const where = `${ctx} → ${r.status} ${r.text.slice(0, 400)}`;
  expect(r.status, where).toBeLessThan(500);
  expect(TRPC_STATUSES.has(r.status), `unexpected status: ${where}`).toBe(true);
  if (r.event !== undefined) {
    if (r.event === 'serialized-error') expectErrorShape({ error: r.body }, null, where);
    return;
  }
  expect(r.body, `JSON body: ${where}`).not.toBeUndefined();
  if (TRANSPORT_STATUSES.has(r.status)) {
    expect(String((r.body as { message?: unknown }).message ?? '').length, where).toBeGreaterThan(0);
    return;
  }
  const items = Array.isArray(r.body) ? r.body : [r.body];
  for (const item of items) {
    if ((item as { error?: unknown })?.error !== undefined) expectErrorShape(item, Array.isArray(r.body) ? null : r.status, where);
    else expect((item as { result?: unknown })?.result, `success envelope: ${where}`).toBeTruthy();
  }
}

async function readJson(res: Response): Promise<WireResult> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

/** Reads an SSE response up to its first data event (then hangs up: subscriptions never end). */
async function readFirstEvent(res: Response, ms: number): Promise<WireResult> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  const deadline = Date.now() + ms;
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`hung subscription: no event in ${ms} ms (got ${JSON.stringify(buf.slice(0, 200))})`);
      const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
      if (chunk === null) continue;
      if (chunk.done) break;
      buf += dec.decode(chunk.value, { stream: true });
      // Events are separated by a blank line; comments (`: ping`) and the `connected` event carry no result.
      for (const block of buf.split(/\r?\n\r?\n/).slice(0, -1)) {
        const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
        const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((m) => m[1]).join('\n');
        if (event === 'connected' || event === 'ping' || !data) continue;
        return { status: res.status, body: JSON.parse(data), event, text: block };
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { status: res.status, body: undefined, event: 'closed', text: buf };
}

/** JSON, or the first event of an SSE stream (which is then hung up). */
export async function readResponse(res: Response): Promise<WireResult> {
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return readFirstEvent(res, 10_000);
  return readJson(res);
}

export interface TrpcCallOpts {
  headers?: Record<string, string>;
}

export async function callProcedure(
  url: string,
  type: 'query' | 'mutation' | 'subscription',
  path: string,
  input: unknown,
  opts: TrpcCallOpts & { form?: FormData } = {},
): Promise<WireResult> {
  const headers = { ...opts.headers };
  const q = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  if (type === 'query') return readJson(await fetchT(`${url}/trpc/${path}${q}`, { headers }));
  if (type === 'subscription') {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), 20_000);
    try {
      const res = await fetchT(`${url}/trpc/${path}${q}`, { headers: { accept: 'text/event-stream', ...headers }, signal: ctl.signal });
      return await readResponse(res);
    } finally {
      clearTimeout(timer);
      ctl.abort();
    }
  }
  if (opts.form) return readJson(await fetchT(`${url}/trpc/${path}`, { method: 'POST', headers, body: opts.form }));
  const body = input === undefined ? undefined : JSON.stringify(input);
  return readJson(await fetchT(`${url}/trpc/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }));
}

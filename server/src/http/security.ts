// Security headers on every response, and CSRF protection for cookie-authenticated tRPC mutations.
//
// Headers: the SPA's HTML gets a strict Content-Security-Policy (scripts only from our origin; inline
// styles allowed for React `style` attributes / Radix; images also from data:/blob: URLs; frames only
// of our own /files for the PDF preview). Everything else gets `default-src 'none'` (JSON, SSE, assets —
// a CSP on a script or stylesheet response has no effect on the page that loads it). Stored files under
// /files are framable by our own pages only (`SAMEORIGIN` / `frame-ancestors 'self'`); they get no other
// directive because Chromium applies a PDF response's own CSP to its built-in viewer.
//
// CSRF: a state-changing request to /trpc that carries the session cookie must come from our own
// origin. Browsers send `Sec-Fetch-Site` (modern ones) and `Origin` (every POST); a request with
// neither is not a browser request and cannot carry a victim's cookie, so it passes (curl, tests).
// The REST API (/api/v1, Bearer only) and /rpc (no cookies) are not cookie-authenticated.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../../shared/constants';
import type { Config } from '../config';

export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Non-HTML responses: nothing may be loaded or framed in their context. */
export const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'";
/** Stored certificate PDFs and photos: framed by our own detail page's preview. */
export const FILE_CSP = "frame-ancestors 'self'";

export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'interest-cohort=()',
].join(', ');

export const CSRF_MESSAGE = 'Cross-site request refused: this action must be sent from the Attesta site itself.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function pathOf(url: string) {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function isFilePath(url: string) {
  return /^\/files(\/|$)/.test(pathOf(url));
}

function contentTypeOf(reply: FastifyReply, payload: unknown): string {
  const fromReply = reply.getHeader('content-type');
  if (fromReply) return String(fromReply);
  // tRPC replies with a web Response whose headers are copied onto the reply later (or streamed).
  if (payload !== null && typeof payload === 'object' && Object.prototype.toString.call(payload) === '[object Response]') {
    return (payload as Response).headers.get('content-type') ?? '';
  }
  return '';
}

function setSecurityHeaders(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  // A 304 carries no body and no content type, yet the browser merges its headers into the cached
  // response it revalidated: a resource CSP here would land on the cached page and block all of its
  // scripts (a blank page on every reload). The content-dependent headers stay as the 200 sent them.
  if (reply.statusCode !== 304) {
    const file = isFilePath(req.url);
    const html = /^text\/html\b/i.test(contentTypeOf(reply, payload));
    reply.header('content-security-policy', file ? FILE_CSP : html ? PAGE_CSP : RESOURCE_CSP);
    reply.header('x-frame-options', file ? 'SAMEORIGIN' : 'DENY');
  }
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('permissions-policy', PERMISSIONS_POLICY);
}

function normalizeOrigin(value: string): string | null {
  try {
    const u = new URL(value);
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/** Our own origins: ATTESTA_PUBLIC_ORIGIN when set, and the origin the request was addressed to. */
export function trustedOrigins(config: Pick<Config, 'publicOrigin'>, req: FastifyRequest): Set<string> {
  const out = new Set<string>();
  if (config.publicOrigin) {
    const o = normalizeOrigin(config.publicOrigin);
    if (o) out.add(o);
  }
  const host = req.headers.host;
  if (host) {
    const o = normalizeOrigin(`${req.protocol}://${host}`);
    if (o) out.add(o);
  }
  return out;
}

/** Why a request is cross-site, or null when it may proceed. */
export function crossSiteReason(config: Pick<Config, 'publicOrigin'>, req: FastifyRequest): string | null {
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
  const site = typeof req.headers['sec-fetch-site'] === 'string' ? req.headers['sec-fetch-site'].toLowerCase() : undefined;
  const trusted = () => {
    const o = origin && origin !== 'null' ? normalizeOrigin(origin) : null;
    return o !== null && trustedOrigins(config, req).has(o);
  };
  if (site !== undefined) {
    // The browser's own verdict; `none` = typed in the address bar / bookmark (user-initiated).
    if (site === 'same-origin' || site === 'none') return null;
    return trusted() ? null : `Sec-Fetch-Site: ${site}`;
  }
  if (origin !== undefined) return trusted() ? null : `Origin: ${origin}`;
  return null; // neither header: not a browser, so no ambient cookie to abuse
}

export function registerSecurity(app: FastifyInstance, config: Pick<Config, 'publicOrigin'>) {
  app.addHook('onRequest', async (req, reply) => {
    if (SAFE_METHODS.has(req.method)) return;
    if (!/^\/trpc(\/|$)/.test(pathOf(req.url))) return;
    if (!req.cookies?.[SESSION_COOKIE]) return; // no cookie session: nothing ambient to forge
    const reason = crossSiteReason(config, req);
    if (reason === null) return;
    req.log.warn({ url: req.url, reason }, 'cross-site request with a session cookie refused');
    return reply
      .code(403)
      .send({ error: { message: CSRF_MESSAGE, code: -32003, data: { code: 'FORBIDDEN', httpStatus: 403 } } });
  });

  app.addHook('onSend', async (req, reply, payload) => {
    setSecurityHeaders(req, reply, payload);
    return payload;
  });
}

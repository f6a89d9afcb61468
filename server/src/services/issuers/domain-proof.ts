import { BlockList, isIP } from 'node:net';
import { Resolver } from 'node:dns/promises';
import https from 'node:https';
import tls from 'node:tls';
import { domainToASCII } from 'node:url';

// An institution proves it controls its domain by publishing its issuer authority (its wallet's
// public key) in one of two places, as certificate authorities and search engines ask site owners to:
//   DNS:   a TXT record `attesta-issuer=<authority>` at `_attesta.<domain>` (or at the domain itself);
//   HTTPS: https://<domain>/.well-known/attesta-issuer.json with {"authority": "<authority>"}.
// The check is made by the server on request and again periodically (./rechecks). The HTTPS fetch
// goes to an address the institution chose, so it is an SSRF risk: only public addresses are
// contacted (unless configured otherwise for tests on loopback), no redirects, a small body, a deadline.

export const DNS_LABEL = '_attesta';
export const TXT_PREFIX = 'attesta-issuer=';
export const WELL_KNOWN_PATH = '/.well-known/attesta-issuer.json';
const MAX_BODY_BYTES = 16 * 1024;

export interface DomainProofConfig {
  /** DNS servers for the lookups (`host` or `host:port`); null = the system's. */
  dnsServers: string[] | null;
  /** The HTTPS port of the well-known file (443 on the internet; tests use another). */
  httpsPort: number;
  /** An extra certificate authority (PEM) to trust besides Node's bundled roots (tests). */
  extraCa: string | null;
  /** Fetch from loopback and private addresses too (tests on this machine only). */
  allowPrivateAddresses: boolean;
  /** Per lookup and per fetch. */
  timeoutMs: number;
}

export type ProofMethod = 'dns' | 'https';

export interface ProofFinding {
  method: ProofMethod;
  ok: boolean;
  /** Where it looked and what it found, in words. */
  detail: string;
}

export interface DomainProofResult {
  domain: string;
  authority: string;
  proven: boolean;
  /** The first method that proved it. */
  method: ProofMethod | null;
  checkedAt: string;
  findings: ProofFinding[];
}

/** What to publish, exactly, for `authority` at `domain` (shown whenever a check fails). */
export function proofInstructions(domain: string, authority: string) {
  return {
    dns: { name: `${DNS_LABEL}.${domain}`, type: 'TXT' as const, value: `${TXT_PREFIX}${authority}` },
    https: { url: `https://${domain}${WELL_KNOWN_PATH}`, body: JSON.stringify({ authority }) },
  };
}

export class InvalidDomainError extends Error {}

/**
 * A registrable host name as typed ("University.edu", "https://www.uni.example/", "münchen.de") →
 * its lowercase ASCII form ("www.uni.example", "xn--mnchen-3ya.de"). IP addresses, single labels,
 * ports and paths are refused with a message saying what to enter.
 */
export function normalizeDomain(input: string): string {
  let s = input.trim().toLowerCase();
  s = s.replace(/^https?:\/\//, '').replace(/\/.*$/, '').replace(/\.$/, '');
  if (!s) throw new InvalidDomainError('Enter your institution’s domain, for example university.edu.');
  if (s.includes(':') || isIP(s)) throw new InvalidDomainError('Enter a domain name, not an address or a port (for example university.edu).');
  const ascii = domainToASCII(s);
  if (!ascii || ascii.length > 253) throw new InvalidDomainError(`“${input.trim()}” is not a valid domain name.`);
  const labels = ascii.split('.');
  if (labels.length < 2) throw new InvalidDomainError('Enter the full domain, with its ending (for example university.edu).');
  if (!labels.every((l) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(l))) throw new InvalidDomainError(`“${input.trim()}” is not a valid domain name.`);
  return ascii;
}

// Addresses an institution's domain must not lead the server to (RFC 6890 special-purpose blocks).
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 127], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? PRIVATE.check(mapped[1], 'ipv4') : PRIVATE.check(address, 'ipv6');
  }
  return true;
}

function resolverFor(cfg: DomainProofConfig) {
  const r = new Resolver({ timeout: cfg.timeoutMs, tries: 2 });
  if (cfg.dnsServers?.length) r.setServers(cfg.dnsServers);
  return r;
}

const errCode = (e: unknown) => (e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? String(e);

async function checkDns(cfg: DomainProofConfig, domain: string, authority: string): Promise<ProofFinding> {
  const resolver = resolverFor(cfg);
  const wanted = `${TXT_PREFIX}${authority}`;
  const seen: string[] = [];
  const failures: string[] = [];
  for (const name of [`${DNS_LABEL}.${domain}`, domain]) {
    let records: string[][];
    try {
      records = await resolver.resolveTxt(name);
    } catch (e) {
      const code = errCode(e);
      if (code !== 'ENODATA' && code !== 'ENOTFOUND') failures.push(`${name}: lookup failed (${code})`);
      continue;
    }
    for (const chunks of records) {
      const value = chunks.join('').trim();
      if (value === wanted) return { method: 'dns', ok: true, detail: `TXT record "${value}" found at ${name}.` };
      if (value.startsWith(TXT_PREFIX)) seen.push(`"${value}" at ${name}`);
    }
  }
  if (seen.length) return { method: 'dns', ok: false, detail: `A TXT record names another authority: ${seen.join(', ')}; it must be "${wanted}".` };
  if (failures.length) return { method: 'dns', ok: false, detail: `The DNS lookup failed: ${failures.join('; ')}.` };
  return { method: 'dns', ok: false, detail: `No TXT record "${wanted}" at ${DNS_LABEL}.${domain} or ${domain}.` };
}

/** Resolves `host` with the configured resolver and picks an address the fetch may use. */
async function safeAddress(cfg: DomainProofConfig, host: string): Promise<{ address: string; family: 4 | 6 }> {
  const resolver = resolverFor(cfg);
  const v4 = await resolver.resolve4(host).catch(() => [] as string[]);
  const v6 = v4.length ? [] : await resolver.resolve6(host).catch(() => [] as string[]);
  const all = [...v4.map((a) => ({ address: a, family: 4 as const })), ...v6.map((a) => ({ address: a, family: 6 as const }))];
  if (!all.length) throw new Error(`${host} has no address (no A or AAAA record)`);
  const ok = all.find((a) => cfg.allowPrivateAddresses || !isPrivateAddress(a.address));
  if (!ok) throw new Error(`${host} resolves to a private or reserved address (${all[0].address}), which is not fetched`);
  return ok;
}

function fetchWellKnown(cfg: DomainProofConfig, domain: string, target: { address: string; family: 4 | 6 }): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: domain, // certificate checked against the domain (SNI + hostname verification)
        servername: domain,
        port: cfg.httpsPort,
        path: WELL_KNOWN_PATH,
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'Attesta domain check' },
        // The address already vetted above: no second lookup that could answer differently (DNS rebinding).
        lookup: (_host, options, cb) =>
          (options as { all?: boolean }).all
            ? (cb as unknown as (e: Error | null, a: { address: string; family: number }[]) => void)(null, [target])
            : (cb as (e: Error | null, a: string, f: number) => void)(null, target.address, target.family),
        ca: cfg.extraCa ? [...tls.rootCertificates, cfg.extraCa] : undefined,
        timeout: cfg.timeoutMs,
        agent: false,
      },
      (res) => {
        let size = 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY_BYTES) {
            req.destroy(new Error(`the file is larger than ${MAX_BODY_BYTES / 1024} KB`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${cfg.timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

async function checkHttps(cfg: DomainProofConfig, domain: string, authority: string): Promise<ProofFinding> {
  const url = `https://${domain}${cfg.httpsPort === 443 ? '' : `:${cfg.httpsPort}`}${WELL_KNOWN_PATH}`;
  let res: Awaited<ReturnType<typeof fetchWellKnown>>;
  try {
    res = await fetchWellKnown(cfg, domain, await safeAddress(cfg, domain));
  } catch (e) {
    return { method: 'https', ok: false, detail: `${url} could not be fetched: ${(e as Error).message}.` };
  }
  if (res.status !== 200) return { method: 'https', ok: false, detail: `${url} answered HTTP ${res.status}${res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : ''}.` };
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    return { method: 'https', ok: false, detail: `${url} is not JSON.` };
  }
  const named = (json as { authority?: unknown; authorities?: unknown } | null) ?? {};
  const list = [named.authority, ...(Array.isArray(named.authorities) ? named.authorities : [])].filter((a): a is string => typeof a === 'string');
  if (list.includes(authority)) return { method: 'https', ok: true, detail: `${url} names this authority.` };
  return { method: 'https', ok: false, detail: list.length ? `${url} names another authority (${list.join(', ')}).` : `${url} has no "authority" field.` };
}

/** Checks both methods (DNS first); proven when either names `authority`. */
export async function checkDomainProof(cfg: DomainProofConfig, domain: string, authority: string): Promise<DomainProofResult> {
  const findings: ProofFinding[] = [];
  const dns = await checkDns(cfg, domain, authority);
  findings.push(dns);
  if (!dns.ok) findings.push(await checkHttps(cfg, domain, authority));
  const proof = findings.find((f) => f.ok);
  return { domain, authority, proven: !!proof, method: proof?.method ?? null, checkedAt: new Date().toISOString(), findings };
}

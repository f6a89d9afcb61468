// Domain proofs against a real DNS server and a real HTTPS server on loopback (server/test/net-peers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDomainProof, isPrivateAddress, normalizeDomain, proofInstructions, type DomainProofConfig } from './domain-proof';
import { startDnsServer } from '../../../test/net-peers/dns';
import { startHttpsSite, type WellKnownSite } from '../../../test/net-peers/https';

const AUTHORITY = 'Dm3cAWb9g1VztjUMuKskosYt3YV1e8GMT3gUpARuL2kW';
const OTHER = '8AmYUVuj6DJ4uGyAKMBAhvf93jKJzc1MJZ3bngoHjKZb';
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let site: WellKnownSite;
let cfg: DomainProofConfig;

beforeAll(async () => {
  dns = await startDnsServer();
  site = await startHttpsSite(['northfield.test', 'www.northfield.test']);
  for (const host of ['northfield.test', 'www.northfield.test', 'dnsonly.test']) dns.zone.a.set(host, ['127.0.0.1']);
  cfg = { dnsServers: [dns.server], httpsPort: site.port, extraCa: site.ca, allowPrivateAddresses: true, timeoutMs: 3000 };
});
afterAll(async () => {
  await dns?.close();
  await site?.close();
});

describe('normalizeDomain', () => {
  it('accepts what people type and refuses what is not a domain, saying what to enter', () => {
    expect(normalizeDomain(' https://Northfield.Test/about ')).toBe('northfield.test');
    expect(normalizeDomain('münchen.de')).toBe('xn--mnchen-3ya.de');
    expect(normalizeDomain('uni.example.')).toBe('uni.example');
    for (const bad of ['', 'localhost', '127.0.0.1', '[::1]', 'uni.example:8443', 'bad_domain.com', '-x.com', `${'a'.repeat(64)}.com`]) {
      expect(() => normalizeDomain(bad), bad).toThrow(/domain/);
    }
  });
});

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local (cloud metadata), mapped and reserved addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '224.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('checkDomainProof', () => {
  it('proves by a DNS TXT record at _attesta.<domain>', async () => {
    dns.zone.txt.set('_attesta.dnsonly.test', [`attesta-issuer=${AUTHORITY}`]);
    const r = await checkDomainProof(cfg, 'dnsonly.test', AUTHORITY);
    expect(r).toMatchObject({ proven: true, method: 'dns' });
    expect(r.findings[0].detail).toBe(`TXT record "attesta-issuer=${AUTHORITY}" found at _attesta.dnsonly.test.`);
    expect(dns.queries).toContain('_attesta.dnsonly.test TXT');
  });

  it('proves by the HTTPS well-known file when there is no TXT record', async () => {
    site.routes.set('/.well-known/attesta-issuer.json', { status: 200, body: JSON.stringify({ authority: AUTHORITY }) });
    const r = await checkDomainProof(cfg, 'northfield.test', AUTHORITY);
    expect(r).toMatchObject({ proven: true, method: 'https' });
    expect(r.findings.map((f) => f.ok)).toEqual([false, true]);
    expect(site.requests.at(-1)).toBe(`northfield.test:${site.port} /.well-known/attesta-issuer.json`);
  });

  it('says exactly what is wrong: another authority, a redirect, not JSON, nothing published', async () => {
    site.routes.set('/.well-known/attesta-issuer.json', { status: 200, body: JSON.stringify({ authority: OTHER }) });
    dns.zone.txt.set('_attesta.northfield.test', [`attesta-issuer=${OTHER}`]);
    let r = await checkDomainProof(cfg, 'northfield.test', AUTHORITY);
    expect(r.proven).toBe(false);
    expect(r.findings[0].detail).toMatch(/names another authority.*it must be "attesta-issuer=Dm3c/);
    expect(r.findings[1].detail).toMatch(/names another authority \(8AmY/);

    dns.zone.txt.delete('_attesta.northfield.test');
    site.routes.set('/.well-known/attesta-issuer.json', { status: 301, body: '' });
    r = await checkDomainProof(cfg, 'northfield.test', AUTHORITY);
    expect(r.findings[1].detail).toMatch(/answered HTTP 301 \(redirects are not followed\)/);

    site.routes.set('/.well-known/attesta-issuer.json', { status: 200, type: 'text/html', body: '<html>' });
    r = await checkDomainProof(cfg, 'northfield.test', AUTHORITY);
    expect(r.findings[1].detail).toMatch(/is not JSON/);

    site.routes.delete('/.well-known/attesta-issuer.json');
    r = await checkDomainProof(cfg, 'northfield.test', AUTHORITY);
    expect(r.findings.map((f) => f.detail)).toEqual([
      `No TXT record "attesta-issuer=${AUTHORITY}" at _attesta.northfield.test or northfield.test.`,
      `https://northfield.test:${site.port}/.well-known/attesta-issuer.json answered HTTP 404.`,
    ]);
    expect(proofInstructions('northfield.test', AUTHORITY)).toEqual({
      dns: { name: '_attesta.northfield.test', type: 'TXT', value: `attesta-issuer=${AUTHORITY}` },
      https: { url: 'https://northfield.test/.well-known/attesta-issuer.json', body: JSON.stringify({ authority: AUTHORITY }) },
    });
  });

  it('never fetches a private address in production settings (SSRF): the domain resolves to loopback', async () => {
    site.routes.set('/.well-known/attesta-issuer.json', { status: 200, body: JSON.stringify({ authority: AUTHORITY }) });
    const before = site.requests.length;
    const r = await checkDomainProof({ ...cfg, allowPrivateAddresses: false }, 'northfield.test', AUTHORITY);
    expect(r.proven).toBe(false);
    expect(r.findings[1].detail).toMatch(/resolves to a private or reserved address \(127\.0\.0\.1\), which is not fetched/);
    expect(site.requests.length).toBe(before);
  });

  it('refuses a certificate that is not for the domain, and an oversized file', async () => {
    dns.zone.a.set('imposter.test', ['127.0.0.1']); // served by the site, whose certificate does not name it
    let r = await checkDomainProof(cfg, 'imposter.test', AUTHORITY);
    expect(r.findings[1].detail).toMatch(/could not be fetched: .*(altnames|Hostname)/i);
    site.routes.set('/.well-known/attesta-issuer.json', { status: 200, body: JSON.stringify({ authority: AUTHORITY, pad: 'x'.repeat(40_000) }) });
    r = await checkDomainProof(cfg, 'northfield.test', AUTHORITY);
    expect(r.findings[1].detail).toMatch(/larger than 16 KB/);
  });

  it('a domain with no address and no records fails on both, without throwing', async () => {
    const r = await checkDomainProof(cfg, 'nowhere.test', AUTHORITY);
    expect(r.proven).toBe(false);
    expect(r.findings[1].detail).toMatch(/has no address/);
  });
});

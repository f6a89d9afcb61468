// A real HTTPS server on loopback with a certificate from a throwaway test CA: the product is told to
// trust that CA (ATTESTA_DOMAIN_PROOF_CA) and to use this port, and its DNS maps the test domains here.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';

export interface WellKnownSite {
  port: number;
  /** PEM of the certificate to trust. */
  ca: string;
  /** Answer per path: status, content type, body. Edit to change what the institution publishes. */
  routes: Map<string, { status: number; type?: string; body: string }>;
  requests: string[];
  close(): Promise<void>;
}

export async function startHttpsSite(hostnames: string[]): Promise<WellKnownSite> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: hostnames[0] }], {
    days: 2,
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: hostnames.map((value) => ({ type: 2, value })) },
    ],
  } as Parameters<typeof selfsigned.generate>[1]); // `days` is read at run time, missing from selfsigned 5's typings
  const routes = new Map<string, { status: number; type?: string; body: string }>();
  const requests: string[] = [];
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    requests.push(`${req.headers.host} ${req.url}`);
    const r = routes.get(req.url ?? '') ?? { status: 404, body: 'not found' };
    res.writeHead(r.status, { 'content-type': r.type ?? 'application/json' });
    res.end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    ca: pems.cert,
    routes,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

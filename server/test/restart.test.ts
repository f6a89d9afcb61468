import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certForm, makeClient, makePdf, signIn, startTestServer, tmpDataDir, waitFor } from './helpers';
import { killChildren, startChildServer } from './faults-support/child';

const claims = { title: 'Certificate of Excellence', institution_name: 'Harbor Institute', program_name: 'Marine Robotics', issue_date: '2025-03-03' };
const pdfFor = () => makePdf(['Harbor Institute', 'Certificate of Excellence', 'Marine Robotics']);
const dirs: string[] = [];
afterAll(() => {
  killChildren();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('restarts', () => {
  it('keeps certificates, sessions, chain records and demo data across a clean restart', async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    let server = await startTestServer(dir, { ATTESTA_DEMO_DATA: 'true' });
    const keyFile = path.join(dir, 'operator.json');
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const operator = server.services.chain.operator.toBase58();

    const c = makeClient(server.url);
    const { wallet } = await signIn(c);
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: await pdfFor(), name: 'h.pdf' }));
    await waitFor(async () => (await c.client.certificate.byId.query({ id: cert.id })).verification_status === 'verified');
    const demo = await c.client.public.verifyById.query({ certificateId: 'cert-1' });
    expect(demo).toMatchObject({ valid: true, status: 'verified', tier: 'issuer_confirmed' });
    expect((await c.client.public.verifyById.query({ certificateId: 'cert-2' })).status).toBe('pending');
    expect((await c.client.public.verifyById.query({ certificateId: 'cert-3' })).status).toBe('rejected');
    // Demo PDFs are real: the public download hashes to the anchored record.
    const demoPdf = new Uint8Array(await (await fetch(`${server.url}/files/certificates/cert-1`)).arrayBuffer());
    const fd = new FormData();
    fd.set('file', new File([demoPdf as BlobPart], 'cert-1.pdf'));
    expect(await c.client.public.verifyFile.mutate(fd)).toMatchObject({ valid: true, integrity: 'match' });
    const registryBefore = await server.services.chain.readRegistry();
    await server.close();

    server = await startTestServer(dir, { ATTESTA_DEMO_DATA: 'true' });
    expect(server.services.chain.operator.toBase58()).toBe(operator);
    const c2 = makeClient(server.url);
    for (const [k, v] of c.jar) c2.jar.set(k, v); // same browser, new server process
    expect((await c2.client.auth.me.query())?.wallet_address).toBe(wallet.address);
    const again = await c2.client.certificate.byId.query({ id: cert.id });
    expect(again).toMatchObject({ verification_status: 'verified', sha256: cert.sha256 });
    expect(await c2.client.public.verifyById.query({ certificateId: cert.id })).toMatchObject({ valid: true, holder_wallet: wallet.address });
    const registryAfter = await server.services.chain.readRegistry();
    expect(registryAfter?.certificateCount).toBe(registryBefore?.certificateCount); // demo not seeded twice
    const n = await server.services.db.selectFrom('certificate').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(4);
    // The chain keeps working after a restore: a new anchor bumps the counter.
    await c2.client.certificate.create.mutate(certForm(claims, { bytes: await pdfFor(), name: 'h2.pdf' }));
    expect((await server.services.chain.readRegistry())?.certificateCount).toBe(registryAfter!.certificateCount + 1n);
    await server.close();
  });

  it('finishes a pipeline after the server process is killed (SIGKILL) in the middle of it', { timeout: 150_000 }, async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    const child = await startChildServer(dir, { ATTESTA_TEST_STEP_DELAY_MS: '1500' });
    const url = child.url;

    const c = makeClient(url);
    await signIn(c);
    const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: await pdfFor(), name: 'k.pdf' }));
    // Kill it after the first step is logged and before the verdict.
    await waitFor(async () => (await c.client.certificate.logs.query({ id: cert.id })).length >= 1, 30_000, 50);
    expect((await c.client.certificate.byId.query({ id: cert.id })).verification_status).toBe('pending');
    await child.kill();

    const server = await startTestServer(dir);
    try {
      const c2 = makeClient(server.url);
      for (const [k, v] of c.jar) c2.jar.set(k, v);
      const done = await waitFor(async () => {
        const r = await c2.client.certificate.byId.query({ id: cert.id });
        return r.verification_status !== 'pending' && r;
      }, 30_000);
      expect(done.verification_status).toBe('verified');
      const logs = await c2.client.certificate.logs.query({ id: cert.id });
      const steps = logs.map((l) => l.verification_step);
      expect(steps).toEqual(['hash_verification', 'document_checks', 'issuer_verification', 'chain_record']); // each exactly once
      const txs = await server.services.db.selectFrom('chain_transaction').select('kind').where('certificate_id', '=', cert.id).execute();
      expect(txs.map((t) => t.kind).sort()).toEqual(['anchor_certificate', 'record_verification']);
      const job = await server.services.db.selectFrom('verification_job').selectAll().where('certificate_id', '=', cert.id).execute();
      expect(job).toHaveLength(1);
      expect(job[0]).toMatchObject({ status: 'done', attempts: 2 });
      expect((await server.services.chain.readCertificate(Buffer.from(cert.sha256, 'hex')))?.status).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('serves the built app with an SPA fallback, but never for API paths', async () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    const dist = path.join(dir, 'dist');
    fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Attesta</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    const server = await startTestServer(dir, { APP_DIST_DIR: dist });
    try {
      expect(await (await fetch(`${server.url}/`)).text()).toContain('<title>Attesta</title>');
      expect(await (await fetch(`${server.url}/certificates/c_123`)).text()).toContain('<title>Attesta</title>');
      expect(await (await fetch(`${server.url}/assets/app.js`)).text()).toBe('console.log(1)');
      expect((await fetch(`${server.url}/trpc/nope`)).status).toBe(404);
      expect((await fetch(`${server.url}/files/certificates/nope`)).status).toBe(404);
      expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ ok: true, chain: 'embedded', dev_wallet: true, rpc_url: null, demo_data: false });
    } finally {
      await server.close();
    }
  });

  it('refuses bad configuration with a message naming the variable', async () => {
    const { loadConfig } = await import('../src/config');
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ SOLANA_RPC_URL: 'not a url' })).toThrow(/SOLANA_RPC_URL/);
    expect(() => loadConfig({ ATTESTA_DEMO_DATA: 'maybe' })).toThrow(/ATTESTA_DEMO_DATA/);
    const dir = tmpDataDir();
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'bad.json'), '[1,2,3]');
    await expect(startTestServer(dir, { OPERATOR_KEYPAIR_PATH: path.join(dir, 'bad.json') })).rejects.toThrow(/OPERATOR_KEYPAIR_PATH/);
  });
});


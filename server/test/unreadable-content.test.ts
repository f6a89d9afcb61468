// Content nobody could read is never "verified": a blank white PNG claimed as a PhD and a photo of
// random noise (the red-team pass had both verified, with a valid public verdict) stay pending on chain
// and on the holder's page, with the reason shown, until the institution confirms them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CertificateStatus, fromHex } from '../../shared/program/codec';
import type { Server } from '../src/app';
import { certForm, makeClient, signIn, startTestServer, tmpDataDir, waitFor } from './helpers';

let server: Server;
beforeAll(async () => {
  server = await startTestServer(tmpDataDir());
});
afterAll(async () => {
  await server?.close();
});

const claims = { title: 'Doctor of Philosophy', institution_name: 'Massachusetts Institute of Technology', program_name: 'Physics', issue_date: '2020-06-01' };

describe('unreadable content is never verified', () => {
  const cases: Array<[string, () => Promise<Buffer>, string]> = [
    ['a blank white PNG', () => sharp({ create: { width: 1200, height: 850, channels: 3, background: '#ffffff' } }).png().toBuffer(), 'png'],
    ['a photo of random noise', () => sharp({ create: { width: 800, height: 600, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).jpeg().toBuffer(), 'jpeg'],
  ];
  for (const [name, make, ext] of cases) {
    it(`${name} claimed as a PhD stays pending, on chain and for every verifier`, async () => {
      const c = makeClient(server.url);
      await signIn(c);
      const cert = await c.client.certificate.create.mutate(certForm(claims, { bytes: await make(), name: `phd.${ext}`, type: `image/${ext}` }));
      const row = await waitFor(async () => {
        const r = await c.client.certificate.byId.query({ id: cert.id });
        return (r.verification_status !== 'pending' || r.verification_details?.state === 'awaiting_confirmation') && r;
      }, 60_000);
      expect(row.verification_status).toBe('pending');
      expect(row.tier).toBe('none');
      expect(row.verification_details).toMatchObject({ state: 'awaiting_confirmation', content_checked: false });
      expect(String(row.verification_details?.reason)).toMatch(/could not be checked automatically\. A certificate whose content could not be checked is not marked verified/);
      expect((await server.services.chain.readCertificate(fromHex(row.sha256)))?.status).toBe(CertificateStatus.Pending);
      expect(await c.client.public.verifyById.query({ certificateId: cert.id })).toMatchObject({ valid: false, status: 'pending', tier: 'none' });
      const rest = await (await fetch(`${server.url}/api/v1/verify/hash/${row.sha256}`)).json();
      expect(rest).toMatchObject({ valid: false, status: 'pending' });
      // Not public: only verified certificates' files are served to others.
      expect((await fetch(`${server.url}/files/certificates/${cert.id}`)).status).toBe(404);
      // And it cannot be minted.
      await expect(c.client.mint.prepare.mutate({ id: cert.id })).rejects.toMatchObject({ message: 'Only verified certificates can be minted.' });
    });
  }
});

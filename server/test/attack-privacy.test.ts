// Attacks on privacy: the chain record of every certificate is public by design (its address commits
// to the file's hash), but the database fields — title, institution, the holder's name and photo, the
// verification details (which quote the document's text) — of a certificate its holder never shared
// and nobody verified are not. An anonymous visitor needs only the public chain to get them.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import type { Server } from '../src/app';
import { makeClient, startTestServer, tmpDataDir } from './helpers';
import { holderWithCertificate } from './attack-support/world';
import { rpcCall } from './rpc-helpers';

let server: Server;
let dir: string;

beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir);
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A holder's private certificate: rejected (the document names another degree), never shared. */
async function privateRejected() {
  const h = await holderWithCertificate(server, 'Doctor of Philosophy', {
    lines: ['Northfield Institute of Technology', 'Certificate of Attendance', 'Marine Biology', 'Confidential: patient case study 4471'],
  });
  expect(h.row.verification_status).toBe('rejected');
  await h.c.client.profile.update.mutate({ full_name: 'Private Person' }).catch(() => undefined);
  return h;
}

/** What anyone can list: every certificate record of the program (getProgramAccounts over /rpc). */
async function publicRecordAddresses(): Promise<string[]> {
  const r = await rpcCall(`${server.url}/rpc`, { jsonrpc: '2.0', id: 1, method: 'getProgramAccounts', params: [CERTIFICATES_PROGRAM_ID.toBase58(), { encoding: 'base64', filters: [{ dataSize: 172 }] }] });
  return (r.json.result as { pubkey: string }[]).map((a) => a.pubkey);
}

/** A record's file hash, as anyone reads it: the anchoring transaction's `hash` argument, in the explorer. */
async function publicHashOf(anon: ReturnType<typeof makeClient>, record: string): Promise<string> {
  const ex = await anon.client.explorer.address.query({ address: record });
  for (const t of ex.transactions) {
    const tx = await anon.client.explorer.transaction.query({ signature: t.signature });
    const hash = tx.instructions.find((i) => i.name === 'anchor_certificate' || i.name === 'anchorCertificate')?.args.find((a) => a.name === 'hash')?.value;
    if (hash) return hash;
  }
  throw new Error('no anchoring transaction found');
}

describe('attack: a private certificate\'s database fields from the public chain', () => {
  // Proves: explorer.address (public, services/explorer explorerAddress) answers any certificate record's
  // address with the row's id, user id and title whatever its status. id + user id is the share link:
  // public.view then returns everything, including verification_details quoting the document's text.
  it('the explorer does not reveal the title or share link of a rejected certificate its holder never shared', async () => {
    const h = await privateRejected();
    const anon = makeClient(server.url);
    const records = await publicRecordAddresses();
    expect(records).toContain(h.row.record_address); // found by walking the public chain
    const ex = await anon.client.explorer.address.query({ address: h.row.record_address });
    // The chain record itself (holder, status, hash) is public by design; the row's fields are not.
    expect(ex.account?.type_name).toBe('Certificate');
    expect(ex.certificate?.title ?? null).toBeNull();
    expect(ex.certificate?.id ?? null).toBeNull();
    // What the leaked link opens.
    if (ex.certificate) {
      const view = await anon.client.public.view.query({ userId: ex.certificate.user_id, certificateId: ex.certificate.id });
      expect(JSON.stringify(view)).not.toContain('Certificate of Attendance');
    }
  });

  // Proves: public.verifyByHash / GET /api/v1/verify/hash/:sha256 join the row by the hash (public on
  // chain) and return toPublicCertificateDto whatever the row's status: title, institution, program,
  // the holder's name, id, user id (the share link) and verification_details — which for a rejected
  // certificate quote the document ("The document names “Certificate of Attendance”…").
  it('verify by hash of a rejected, unshared certificate does not return its title, holder or document text', async () => {
    const h = await privateRejected();
    const anon = makeClient(server.url);
    const sha256 = await publicHashOf(anon, h.row.record_address);
    expect(sha256).toBe(h.row.sha256); // the hash is public on chain by design
    const v = await anon.client.public.verifyByHash.query({ sha256 });
    expect(v.status).toBe('rejected'); // the chain's part: public by design
    const rest = await (await fetch(`${server.url}/api/v1/verify/hash/${h.row.sha256}`)).text();
    for (const text of [JSON.stringify(v.certificate ?? null), rest]) {
      expect(text).not.toContain('Doctor of Philosophy');
      expect(text).not.toContain('Certificate of Attendance');
      expect(text).not.toContain(h.user.id);
    }
  });
});

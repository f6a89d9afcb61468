// Attack on "no key anyone can derive holds rights on a reachable chain". A data dir seeded by an
// earlier release holds demo records issued by the institution key sha256("attesta-demo:issuer") to
// the holder key sha256("attesta-demo:holder") — both derivable from the source. At start the server
// suspends that institution and moves the demo *user* to a new key (retireDerivableDemoKeys), but the
// records on chain still name the derivable keys: suspension does not stop revoke_certificate (the
// program checks `certificate.issuer == signer`, not the issuer's status), and the record's holder is
// still the derivable holder key (it can ask any approved institution to confirm, or mint the NFT).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { IssuerStatus, fromHex } from '../../shared/program/codec';
import { requestConfirmationIx, revokeCertificateIx } from '../../shared/program/instructions';
import { ReasonCode } from '../../shared/program/reasons';
import type { Server } from '../src/app';
import { DEMO_KEYS_FILE, loadOrCreateDemoKeys } from '../src/services/demo/keys';
import { startTestServer, tmpDataDir } from './helpers';
import { approvedIssuer, fund, rpcConnection, send } from './attack-support/world';

const programId = CERTIFICATES_PROGRAM_ID;
const derivable = (label: string) => Keypair.fromSeed(createHash('sha256').update(`attesta-demo:${label}`).digest());
const servers: Server[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A data dir as the earlier release left it (its seed used the derivable keys), then upgraded: started again with this release. */
async function upgradedDataDir() {
  const dir = tmpDataDir();
  dirs.push(dir);
  // The earlier release's keys were these two; writing them as demo-keys.json makes this release's seed produce records held and issued by them.
  fs.writeFileSync(path.join(dir, DEMO_KEYS_FILE), JSON.stringify({ issuer: Array.from(derivable('issuer').secretKey), holder: Array.from(derivable('holder').secretKey) }), { mode: 0o600 });
  const old = await startTestServer(dir, { ATTESTA_DEMO_DATA: 'true', ATTESTA_WORKER: 'false' });
  // The legacy demo records, as the old release seeded them (cert-1 issued by the derivable institution, all held by the derivable holder).
  const legacy = Object.fromEntries((await old.services.db.selectFrom('certificate').select(['id', 'sha256']).execute()).map((r) => [r.id, fromHex(r.sha256)]));
  expect(Object.keys(legacy).sort()).toEqual(['cert-1', 'cert-2', 'cert-3']);
  await old.close();
  fs.rmSync(path.join(dir, DEMO_KEYS_FILE)); // this release makes random keys on its first start
  const s = await startTestServer(dir, { ATTESTA_DEMO_DATA: 'true', ATTESTA_WORKER: 'false' });
  servers.push(s);
  expect((await s.services.chain.readIssuer(derivable('issuer').publicKey))?.status).toBe(IssuerStatus.Suspended); // the retirement ran
  return { s, dir, legacy };
}

describe('attack: keys derivable from the source on an upgraded installation', () => {
  // Proves: the suspended, derivable demo institution key still revokes the demo certificate it issued,
  // through the public /rpc (revoke_certificate ignores the issuer's status; retireDerivableDemoKeys only
  // suspends). Anyone who reads the source can revoke cert-1 ("revoked as fraudulent") on every upgraded server.
  it('the derivable demo institution key cannot revoke the demo certificate after the upgrade', async () => {
    const { s, dir, legacy } = await upgradedDataDir();
    const conn = rpcConnection(s);
    const attacker = derivable('issuer');
    await fund(conn, attacker);
    const attempt = (hash: Uint8Array) =>
      send(conn, attacker, revokeCertificateIx(programId, { hash, authority: attacker.publicKey, reasonCode: ReasonCode.RevokedFraud })).then(
        () => 'revoked',
        (e: Error & { logs?: string[] }) => `refused: ${(e.logs ?? []).join(' ')} ${e.message}`,
      );
    // The legacy cert-1 (issued by the derivable institution) and the reseeded one both refuse the attacker.
    const cert1 = await s.services.db.selectFrom('certificate').selectAll().where('id', '=', 'cert-1').executeTakeFirstOrThrow();
    const fresh = fromHex(cert1.sha256);
    expect(await attempt(legacy['cert-1'])).toMatch(/^refused: .*AlreadyRevoked/);
    expect(await attempt(fresh)).toMatch(/^refused: .*NotAuthorizedToRevoke/);
    // Adjusted from "the record is not revoked", which encoded another fix (the program refusing a
    // suspended issuer's revocation; programs/** is not ours to change). This release retires the
    // legacy demo records instead: the operator (registry admin) revoked each with revoked_superseded
    // before anyone could, so the derivable key finds them already revoked; the demo certificates were
    // seeded afresh, held and issued by this installation's own keys, and the attack leaves them intact.
    const keys = loadOrCreateDemoKeys(dir);
    const operator = s.services.chain.operator;
    for (const id of ['cert-1', 'cert-2', 'cert-3']) {
      const old = await s.services.chain.readCertificate(legacy[id]);
      expect({ id, status: old?.status, reason: old?.reasonCode, by: old?.verifier?.toBase58() }).toEqual({ id, status: 3, reason: ReasonCode.RevokedSuperseded, by: operator.toBase58() });
      const row = await s.services.db.selectFrom('certificate').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(Buffer.from(fromHex(row.sha256)).equals(Buffer.from(legacy[id]))).toBe(false); // a new file (per-installation serial), a new record
      expect(row.holder_wallet).toBe(keys.holder.publicKey.toBase58());
      const record = await s.services.chain.readCertificate(fromHex(row.sha256));
      expect(record?.holder.equals(keys.holder.publicKey)).toBe(true);
      expect(record?.status).toBe({ 'cert-1': 1, 'cert-2': 0, 'cert-3': 2 }[id]); // verified, pending, rejected: untouched
    }
    const record1 = await s.services.chain.readCertificate(fresh);
    expect(record1?.issuer?.equals(keys.issuer.publicKey)).toBe(true);
    expect(cert1.verification_status).toBe('verified');
  });

  // Proves: the derivable demo holder key is still the holder of the demo records on chain, so it can act
  // as their holder (here: ask an institution of its choice to confirm cert-2, which also gives that
  // institution the right to revoke it), while the demo user the server moved to the new key cannot.
  it('the derivable demo holder key holds no holder rights over the demo records after the upgrade', async () => {
    const { s, legacy } = await upgradedDataDir();
    const conn = rpcConnection(s);
    const accomplice = Keypair.generate();
    await approvedIssuer(s, accomplice, 'Accomplice College');
    const attacker = derivable('holder');
    await fund(conn, attacker);
    const cert2 = await s.services.db.selectFrom('certificate').selectAll().where('id', '=', 'cert-2').executeTakeFirstOrThrow();
    const hash = fromHex(cert2.sha256);
    const ask = (h: Uint8Array) =>
      send(conn, attacker, requestConfirmationIx(programId, { hash: h, holder: attacker.publicKey, issuerAuthority: accomplice.publicKey })).then(
        () => 'accepted',
        (e: Error & { logs?: string[] }) => `refused: ${(e.logs ?? []).join(' ')} ${e.message}`,
      );
    expect(await ask(hash)).toMatch(/^refused/);
    const record = await s.services.chain.readCertificate(hash);
    expect(record?.holder.equals(attacker.publicKey)).toBe(false);
    // The records it still names as holder (the legacy demo records) are revoked: it cannot act on them either.
    expect(await ask(legacy['cert-2'])).toMatch(/^refused: .*InvalidCertificateStatus/);
    for (const id of ['cert-1', 'cert-2', 'cert-3']) expect((await s.services.chain.readCertificate(legacy[id]))?.status).toBe(3);
  });
});

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
import { DEMO_KEYS_FILE } from '../src/services/demo/keys';
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
  // The earlier release's keys were these two; writing them as demo-keys.json makes this release's seed produce the same records.
  fs.writeFileSync(path.join(dir, DEMO_KEYS_FILE), JSON.stringify({ issuer: Array.from(derivable('issuer').secretKey), holder: Array.from(derivable('holder').secretKey) }), { mode: 0o600 });
  const old = await startTestServer(dir, { ATTESTA_DEMO_DATA: 'true', ATTESTA_WORKER: 'false' });
  await old.close();
  fs.rmSync(path.join(dir, DEMO_KEYS_FILE)); // this release makes random keys on its first start
  const s = await startTestServer(dir, { ATTESTA_DEMO_DATA: 'true', ATTESTA_WORKER: 'false' });
  servers.push(s);
  expect((await s.services.chain.readIssuer(derivable('issuer').publicKey))?.status).toBe(IssuerStatus.Suspended); // the retirement ran
  return s;
}

describe('attack: keys derivable from the source on an upgraded installation', () => {
  // Proves: the suspended, derivable demo institution key still revokes the demo certificate it issued,
  // through the public /rpc (revoke_certificate ignores the issuer's status; retireDerivableDemoKeys only
  // suspends). Anyone who reads the source can revoke cert-1 ("revoked as fraudulent") on every upgraded server.
  it('the derivable demo institution key cannot revoke the demo certificate after the upgrade', async () => {
    const s = await upgradedDataDir();
    const conn = rpcConnection(s);
    const attacker = derivable('issuer');
    await fund(conn, attacker);
    const cert1 = await s.services.db.selectFrom('certificate').selectAll().where('id', '=', 'cert-1').executeTakeFirstOrThrow();
    const hash = fromHex(cert1.sha256);
    const outcome = await send(conn, attacker, revokeCertificateIx(programId, { hash, authority: attacker.publicKey, reasonCode: ReasonCode.RevokedFraud })).then(
      () => 'revoked',
      (e: Error) => `refused: ${e.message.slice(0, 80)}`,
    );
    expect(outcome).toMatch(/^refused/);
    expect((await s.services.chain.readCertificate(hash))?.status).not.toBe(3);
  });

  // Proves: the derivable demo holder key is still the holder of the demo records on chain, so it can act
  // as their holder (here: ask an institution of its choice to confirm cert-2, which also gives that
  // institution the right to revoke it), while the demo user the server moved to the new key cannot.
  it('the derivable demo holder key holds no holder rights over the demo records after the upgrade', async () => {
    const s = await upgradedDataDir();
    const conn = rpcConnection(s);
    const accomplice = Keypair.generate();
    await approvedIssuer(s, accomplice, 'Accomplice College');
    const attacker = derivable('holder');
    await fund(conn, attacker);
    const cert2 = await s.services.db.selectFrom('certificate').selectAll().where('id', '=', 'cert-2').executeTakeFirstOrThrow();
    const hash = fromHex(cert2.sha256);
    const outcome = await send(conn, attacker, requestConfirmationIx(programId, { hash, holder: attacker.publicKey, issuerAuthority: accomplice.publicKey })).then(
      () => 'accepted',
      (e: Error) => `refused: ${e.message.slice(0, 80)}`,
    );
    expect(outcome).toMatch(/^refused/);
    const record = await s.services.chain.readCertificate(hash);
    expect(record?.holder.equals(attacker.publicKey)).toBe(false);
  });
});

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, Transaction } from '@solana/web3.js';
import { fromHex, toHex } from '../../shared/program/codec';
import { buildSoulboundMintInstructions } from '../../shared/program/mint';
import { certificatePda } from '../../shared/program/pda';
import { IssuerStatus } from '../../shared/program/codec';
import { ReasonCode } from '../../shared/program/reasons';
import { issueCertificateIx, requestConfirmationIx, revokeCertificateIx } from '../../shared/program/instructions';
import { DEMO_ISSUER_DOMAIN, DEMO_ISSUER_NAME } from '../../server/src/services/demo/seed';
import { loadOrCreateDemoKeys } from '../../server/src/services/demo/keys';
import { tmpDataDir } from '../../server/test/helpers';
import { startRpcServer } from '../../server/test/rpc-helpers';

// The `attesta` CLI as a user runs it (a child process through bin/attesta.mjs), reading only the
// chain through the embedded chain's /rpc: no Attesta API is involved.

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/attesta.mjs');

let s: Awaited<ReturnType<typeof startRpcServer>>;
let work: string;

function attesta(args: string[], cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function demoFile(id: string) {
  const row = await s.server.services.db.selectFrom('certificate').select(['sha256', 'file_key']).where('id', '=', id).executeTakeFirstOrThrow();
  const bytes = await s.server.services.blobs.get(row.file_key);
  const file = path.join(work, `${id}.pdf`);
  fs.writeFileSync(file, bytes!);
  return { file, sha256: row.sha256, bytes: bytes! };
}

/** A certificate of our own, anchored and verified by the operator (the platform verifier). */
async function verifiedCertificate(p: { holder?: Keypair; expiresAt?: bigint } = {}) {
  const chain = s.server.services.chain;
  const hash = new Uint8Array(randomBytes(32));
  const holder = p.holder ?? Keypair.generate();
  await chain.anchorCertificate({ hash, holder: holder.publicKey, expiresAt: p.expiresAt }, { kind: 'anchor_certificate' });
  await chain.recordVerification({ hash, verified: true, reasonCode: 0 }, { kind: 'record_verification' });
  return { hash, hex: toHex(hash), holder };
}

/** An institution of our own, registered and approved on chain (its domain proof is the server's, off chain). */
async function approvedInstitution(name: string) {
  const chain = s.server.services.chain;
  const kp = Keypair.generate();
  await chain.registerIssuer({ authority: kp, name, uri: `${name.toLowerCase().replace(/\W+/g, '')}.example` }, { kind: 'register_issuer' });
  await chain.setIssuerStatus({ authority: kp.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
  return kp;
}

/** A certificate the institution issued with its own key (issuer_confirmed). */
async function issuedCertificate(institution: Keypair) {
  const chain = s.server.services.chain;
  const hash = new Uint8Array(randomBytes(32));
  const holder = Keypair.generate();
  await chain.sendTransaction(new Transaction().add(issueCertificateIx(chain.programId, { hash, holder: holder.publicKey, authority: institution.publicKey, payer: chain.operator, expiresAt: 0n })), [institution], { kind: 'issue_certificate' });
  return { hash, hex: toHex(hash), holder };
}

let dataDir: string;
const demoHolderKey = () => loadOrCreateDemoKeys(dataDir).holder;
const demoIssuerKey = () => loadOrCreateDemoKeys(dataDir).issuer;

beforeAll(async () => {
  dataDir = tmpDataDir();
  s = await startRpcServer(dataDir);
  work = fs.mkdtempSync(path.join(tmpDataDir(), 'cli-'));
});
afterAll(async () => {
  await s?.close();
});

describe('attesta verify', () => {
  it('a verified certificate file: exit 0 with every step printed', async () => {
    const { file, sha256 } = await demoFile('cert-1');
    const r = await attesta(['verify', file, '--rpc', s.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`SHA-256  ${sha256}`);
    expect(r.stdout).toContain(`Record   ${certificatePda(fromHex(sha256))[0].toBase58()}`);
    expect(r.stdout).toMatch(/\[PASS\] integrity .*exists on chain/);
    expect(r.stdout).toMatch(/\[PASS\] status +verified/);
    expect(r.stdout).toMatch(/\[PASS\] expiry +never expires/);
    // The tier alone passes nothing; the issuer step says whose key signed, and that the domain proof
    // (the server's, off chain; the demo institution's is never proven) is not checked here.
    expect(r.stdout).toMatch(/\[INFO\] tier +issuer_confirmed: the record says the institution's own key issued or confirmed it/);
    const authority = demoIssuerKey().publicKey.toBase58();
    expect(r.stdout).toContain(`[WARN] issuer     "${DEMO_ISSUER_NAME}" (https://${DEMO_ISSUER_DOMAIN}), approved; its own key ${authority} signed this record.`);
    expect(r.stdout).toContain(`its domain ${DEMO_ISSUER_DOMAIN} is NOT checked by this CLI`);
    expect(r.stdout).toContain(`"attesta-issuer=${authority}" at _attesta.${DEMO_ISSUER_DOMAIN}`);
    expect(r.stdout).not.toMatch(/\[PASS\] (tier|issuer) /);
    expect(r.stdout).toContain(`[INFO] holder     ${demoHolderKey().publicKey.toBase58()}`);
    expect(r.stdout).toMatch(/\[INFO\] nft +not minted/);
    expect(r.stdout).toMatch(/\[INFO\] timestamps anchored \d{4}-/);
    expect(r.stdout).toContain(
      `\nVALID: issued or confirmed by "${DEMO_ISSUER_NAME}" with its own key (an approved issuer on chain); its domain ${DEMO_ISSUER_DOMAIN} is not checked by this CLI (see issuer). Not revoked, not expired.\n`,
    );
  });

  it('a platform-only check is VALID in words that never read as the institution\'s', async () => {
    const c = await verifiedCertificate();
    const r = await attesta(['verify', c.hex, '--rpc', s.url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\[PASS\] tier +platform_verified: checked by Attesta only \(the file is intact and its text names the claimed title, institution, program and holder\); not confirmed by the institution\./);
    expect(r.stdout).toMatch(/\[INFO\] issuer +none named on chain: no institution has confirmed it\./);
    expect(r.stdout).toContain(
      '\nVALID: checked by Attesta only, not confirmed by the institution (the file is intact and its text names the claimed title, institution, program and holder); ask the holder to request confirmation. Not revoked, not expired.\n',
    );
    expect(r.stdout).not.toMatch(/Verified certificate|issuer_confirmed/);

    // Asked to confirm it, the institution is named as asked, never as having confirmed.
    const asked = await approvedInstitution('Eastfield College');
    const chain = s.server.services.chain;
    await chain.sendTransaction(new Transaction().add(requestConfirmationIx(chain.programId, { hash: c.hash, holder: c.holder.publicKey, issuerAuthority: asked.publicKey })), [c.holder], { kind: 'request_confirmation' });
    const j = await attesta(['verify', c.hex, '--rpc', s.url, '--json']);
    expect(j.code).toBe(0);
    const v = JSON.parse(j.stdout);
    expect(v).toMatchObject({ verdict: 'valid', issuer: null, confirmationRequestedFrom: { name: 'Eastfield College', approved: true } });
    expect(v.reason).toBe(
      'checked by Attesta only, not confirmed by the institution (the file is intact and its text names the claimed title, institution, program and holder); the holder asked "Eastfield College" to confirm it, which it has not done yet. Not revoked, not expired.',
    );
    expect(v.steps.find((x: { step: string }) => x.step === 'issuer')).toMatchObject({ result: 'info', detail: 'confirmation requested from "Eastfield College" (eastfieldcollege.example) (approved); not confirmed by it.' });
  });

  it('a certificate confirmed by an institution the operator suspended is not valid (exit 1), as on the server', async () => {
    const inst = await approvedInstitution('Westbrook Polytechnic');
    const c = await issuedCertificate(inst);
    const before = await attesta(['verify', c.hex, '--rpc', s.url, '--json']);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toMatchObject({ verdict: 'valid', issuer: { name: 'Westbrook Polytechnic', status: 'approved', approved: true, domain: 'westbrookpolytechnic.example', domainProof: 'not_checked' } });

    await s.server.services.chain.setIssuerStatus({ authority: inst.publicKey, status: IssuerStatus.Suspended }, { kind: 'set_issuer_status' });
    const [r, j, server] = await Promise.all([
      attesta(['verify', c.hex, '--rpc', s.url]),
      attesta(['verify', c.hex, '--rpc', s.url, '--json']),
      fetch(`${s.server.url}/api/v1/verify/hash/${c.hex}`).then((x) => x.json()),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\[PASS\] status +verified/);
    expect(r.stdout).toContain(`[FAIL] issuer     "Westbrook Polytechnic" (westbrookpolytechnic.example), suspended: its own key ${inst.publicKey.toBase58()} signed this record, but an institution that is not approved confirms nothing.`);
    expect(r.stdout).toContain('\nNOT VALID: "Westbrook Polytechnic" signed this record with its own key, but its registration is suspended: its confirmation does not count.\n');
    expect(JSON.parse(j.stdout)).toMatchObject({ verdict: 'not_valid', valid: false, exitCode: 1, issuer: { status: 'suspended', approved: false } });
    // The server's verdict for the same hash agrees.
    expect(server).toMatchObject({ valid: false, status: 'verified', tier: 'issuer_confirmed', note: "Westbrook Polytechnic's registration is suspended." });
  });

  it('--json prints a verdict that parses; rejected and pending certificates exit 1 with the reason', async () => {
    const one = await demoFile('cert-1');
    const rejected = await demoFile('cert-3');
    const pending = await demoFile('cert-2');
    const [j, rej, pend, rejJson] = await Promise.all([
      attesta(['verify', one.file, '--rpc', s.url, '--json']),
      attesta(['verify', rejected.sha256, '--rpc', s.url]),
      attesta(['verify', pending.file, `--rpc=${s.url}`]),
      attesta(['verify', rejected.file, '--rpc', s.url, '--json']),
    ]);
    expect(j.code).toBe(0);
    const v = JSON.parse(j.stdout);
    expect(v).toMatchObject({ verdict: 'valid', valid: true, exitCode: 0, sha256: one.sha256, input: { kind: 'file', bytes: one.bytes.length } });
    expect(v.certificate).toMatchObject({ status: 'verified', tier: 'issuer_confirmed', holder: demoHolderKey().publicKey.toBase58(), expired: false, revokedAt: null });
    expect(v.issuer).toMatchObject({ name: DEMO_ISSUER_NAME, status: 'approved', approved: true });
    expect(v.steps.map((x: { step: string }) => x.step)).toEqual(['integrity', 'status', 'expiry', 'tier', 'issuer', 'holder', 'nft', 'timestamps']);

    expect(rej.code).toBe(1);
    // The reason in words (the code's name only beside them).
    expect(rej.stdout).toMatch(/\[FAIL\] status +rejected on \d{4}-[^:]+:\d\d:\d\d\.\d+Z: the document does not name what was claimed \(content_mismatch\)\./);
    expect(rej.stdout).toMatch(/^NOT VALID: The certificate was rejected: the document does not name what was claimed\.$/m);
    expect(pend.code).toBe(1);
    expect(pend.stdout).toMatch(/NOT VALID: The certificate is pending verification\./);
    expect(rejJson.code).toBe(1);
    expect(JSON.parse(rejJson.stdout)).toMatchObject({
      verdict: 'not_valid',
      valid: false,
      reason: 'The certificate was rejected: the document does not name what was claimed.',
      certificate: { status: 'rejected', reasonCode: ReasonCode.ContentMismatch, reason: 'content_mismatch', reasonText: 'the document does not name what was claimed' },
    });
  });

  it('a revoked certificate exits 1 with the revocation reason', async () => {
    const c = await verifiedCertificate();
    const chain = s.server.services.chain;
    const before = await attesta(['verify', c.hex, '--rpc', s.url]);
    expect(before.code).toBe(0);
    await chain.sendTransaction(new Transaction().add(revokeCertificateIx(chain.programId, { hash: c.hash, authority: chain.operator, reasonCode: ReasonCode.RevokedFraud })), [], { kind: 'revoke_certificate' });
    const r = await attesta(['verify', c.hex, '--rpc', s.url, '--json']);
    expect(r.code).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v).toMatchObject({ verdict: 'not_valid', reason: `The certificate was revoked on ${v.certificate.revokedAt}: revoked as fraudulent.`, certificate: { status: 'revoked', reason: 'revoked_fraud', reasonText: 'revoked as fraudulent', verifier: chain.operator.toBase58() } });
    expect(v.certificate.revokedAt).toMatch(/^\d{4}-/);
    expect(v.steps.find((x: { step: string }) => x.step === 'status').detail).toBe(`revoked on ${v.certificate.revokedAt} by ${chain.operator.toBase58()}: revoked as fraudulent (revoked_fraud).`);
  });

  // The audit: "[PASS] tier platform_verified: checked by Attesta only…" (and a passed NFT) printed above
  // "NOT VALID" for a revoked record. What it had is said as what it had, beside what it is now.
  it('a revoked record passes no step that no longer counts: its lines agree with NOT VALID', async () => {
    const chain = s.server.services.chain;
    const holder = Keypair.generate();
    const platform = await verifiedCertificate({ holder });
    const mint = Keypair.generate();
    const ixs = buildSoulboundMintInstructions({ payer: chain.operator, holder: holder.publicKey, mint: mint.publicKey, hash: platform.hash, title: 'CLI revoked', uri: 'https://example.test/r', programId: chain.programId });
    await chain.sendTransaction(new Transaction().add(...ixs), [holder, mint], { kind: 'mint_certificate' });
    const inst = await approvedInstitution('Eastmoor College');
    const issued = await issuedCertificate(inst);
    for (const c of [platform, issued]) {
      await chain.sendTransaction(new Transaction().add(revokeCertificateIx(chain.programId, { hash: c.hash, authority: chain.operator, reasonCode: ReasonCode.RevokedFraud })), [], { kind: 'revoke_certificate' });
    }
    const [p, i] = await Promise.all([attesta(['verify', platform.hex, '--rpc', s.url]), attesta(['verify', issued.hex, '--rpc', s.url])]);
    for (const r of [p, i]) {
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^NOT VALID: The certificate was revoked/m);
      expect(r.stdout).not.toMatch(/\[PASS\] (status|tier|issuer|nft) /);
    }
    expect(p.stdout).toMatch(/\[INFO\] tier +platform_verified, what it had: checked by Attesta only .*But the record is revoked now, so this no longer counts\./);
    expect(p.stdout).toMatch(/\[INFO\] nft +soulbound NFT \S+: held by the holder .*The token does not make the record valid: the record is revoked\./);
    expect(i.stdout).toMatch(/\[INFO\] tier +issuer_confirmed: .* But the record is revoked now, so this no longer counts\./);
    expect(i.stdout).toContain(`[INFO] issuer     "Eastmoor College" (eastmoorcollege.example), approved; its own key ${inst.publicKey.toBase58()} signed this record, but the record is revoked now, so this no longer counts.`);
  });

  it('a revocation by the institution says what part it played: issuing it, or only being asked to confirm it', async () => {
    const chain = s.server.services.chain;
    const inst = await approvedInstitution('Southgate Institute');
    const issued = await issuedCertificate(inst);
    const asked = await verifiedCertificate();
    await chain.sendTransaction(new Transaction().add(requestConfirmationIx(chain.programId, { hash: asked.hash, holder: asked.holder.publicKey, issuerAuthority: inst.publicKey })), [asked.holder], { kind: 'request_confirmation' });
    for (const c of [issued, asked]) {
      await chain.sendTransaction(new Transaction().add(revokeCertificateIx(chain.programId, { hash: c.hash, authority: inst.publicKey, reasonCode: ReasonCode.RevokedByIssuer })), [inst], { kind: 'revoke_certificate' });
    }
    const [i, a] = await Promise.all([attesta(['verify', issued.hex, '--rpc', s.url]), attesta(['verify', asked.hex, '--rpc', s.url])]);
    const key = inst.publicKey.toBase58();
    expect(i.code).toBe(1);
    expect(i.stdout).toMatch(new RegExp(`\\[FAIL\\] status +revoked on \\S+ by Southgate Institute \\(the issuing institution\\), key ${key}: revoked by the institution named on the record \\(revoked_by_issuer\\)\\.`));
    expect(i.stdout).toMatch(/^NOT VALID: The certificate was revoked on \S+: revoked by the institution named on the record\.$/m);
    expect(a.code).toBe(1);
    expect(a.stdout).toMatch(new RegExp(`\\[FAIL\\] status +revoked on \\S+ by Southgate Institute \\(the institution the holder asked to confirm it\\), key ${key}: revoked by the institution named on the record \\(revoked_by_issuer\\)\\.`));
    expect(a.stdout).not.toMatch(/issuing institution|that issued it/);
  });

  it('an expired certificate exits 1', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const c = await verifiedCertificate({ expiresAt: now + 2n });
    await new Promise((r) => setTimeout(r, 3200));
    const r = await attesta(['verify', c.hex, '--rpc', s.url]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\[FAIL\] expiry +expired on/);
    expect(r.stdout).toMatch(/\[FAIL\] status +verified on \S+, but expired since \S+ \(see expiry\)\./);
    expect(r.stdout).not.toMatch(/\[PASS\] (status|tier) /);
    expect(r.stdout).toMatch(/NOT VALID: The certificate expired on/);
  });

  it('shows the soulbound NFT and whether the holder still holds it', async () => {
    const holder = Keypair.generate();
    const c = await verifiedCertificate({ holder });
    const chain = s.server.services.chain;
    const mint = Keypair.generate();
    const ixs = buildSoulboundMintInstructions({ payer: chain.operator, holder: holder.publicKey, mint: mint.publicKey, hash: c.hash, title: 'CLI test', uri: 'https://example.test/c', programId: chain.programId });
    await chain.sendTransaction(new Transaction().add(...ixs), [holder, mint], { kind: 'mint_certificate' });
    const r = await attesta(['verify', c.hex, '--rpc', s.url, '--json']);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v.nft).toMatchObject({ mint: mint.publicKey.toBase58(), held: true, amount: '1', supply: '1', metadataNamesHash: true });
    expect(v.steps.find((x: { step: string }) => x.step === 'nft')).toMatchObject({ result: 'pass' });

    // The same facts through web3.js's token methods on /rpc (what Explorer's token pages call).
    const conn = new Connection(s.url, 'confirmed');
    expect((await conn.getTokenSupply(mint.publicKey)).value).toMatchObject({ amount: '1', decimals: 0, uiAmountString: '1' });
    const largest = await conn.getTokenLargestAccounts(mint.publicKey);
    expect(largest.value).toHaveLength(1);
    expect(largest.value[0].address.toBase58()).toBe(v.nft.tokenAccount);
    expect((await conn.getTokenAccountBalance(largest.value[0].address)).value.amount).toBe('1');
    const owned = await conn.getTokenAccountsByOwner(holder.publicKey, { mint: mint.publicKey });
    expect(owned.value.map((a) => a.pubkey.toBase58())).toEqual([v.nft.tokenAccount]);
  });

  it('an unknown hash and a tampered file are not found (exit 2) with the reason', async () => {
    const { bytes } = await demoFile('cert-1');
    const tampered = Buffer.from(bytes);
    tampered[Math.floor(tampered.length / 2)] ^= 0x01; // one bit
    const tamperedFile = path.join(work, 'tampered.pdf');
    fs.writeFileSync(tamperedFile, tampered);
    const unknown = toHex(new Uint8Array(randomBytes(32)));
    const [u, t, tj] = await Promise.all([
      attesta(['verify', unknown, '--rpc', s.url]),
      attesta(['verify', tamperedFile, '--rpc', s.url]),
      attesta(['verify', tamperedFile, '--rpc', s.url, '--json']),
    ]);
    expect(u.code).toBe(2);
    expect(u.stdout).toMatch(/\[FAIL\] integrity +No certificate record exists on chain for this SHA-256/);
    expect(u.stdout).toMatch(/^NOT FOUND: /m);
    expect(t.code).toBe(2);
    expect(t.stdout).toMatch(/not the registered file \(a single changed byte changes its SHA-256\)/);
    const v = JSON.parse(tj.stdout);
    expect(v).toMatchObject({ verdict: 'not_found', valid: false, exitCode: 2, certificate: null });
    expect(v.sha256).not.toBe((await demoFile('cert-1')).sha256);
  });

  it('usage and network errors exit 3; --help exits 0; npx resolves the local bin', async () => {
    const [help, noArgs, bad, down, badProgram, npx] = await Promise.all([
      attesta(['--help']),
      attesta([]),
      attesta(['verify', 'not-a-hash-or-file', '--rpc', s.url]),
      attesta(['verify', 'ab'.repeat(32), '--rpc', 'http://127.0.0.1:9/rpc', '--json']),
      attesta(['verify', 'ab'.repeat(32), '--rpc', s.url, '--program', 'nope']),
      new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile('npx', ['--no-install', 'attesta', 'verify', 'ab'.repeat(32), '--rpc', s.url], { cwd: ROOT, timeout: 60_000 }, (err, stdout) =>
          resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout }),
        ),
      ),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/attesta verify <file\|sha256> \[--rpc URL\] \[--program ID\] \[--json\]/);
    expect(noArgs.code).toBe(3);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/neither a readable file nor a 64-character hex SHA-256/);
    expect(down.code).toBe(3);
    expect(JSON.parse(down.stdout)).toMatchObject({ verdict: 'error', valid: false, exitCode: 3 });
    expect(badProgram.code).toBe(3);
    expect(npx.code).toBe(2);
    expect(npx.stdout).toMatch(/NOT FOUND/);
  });
});

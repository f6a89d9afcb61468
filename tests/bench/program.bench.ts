// Compute units and account costs of the certificates program, measured on LiteSVM and bankrun in
// one run, beside a bare Token-2022 soulbound mint made with @solana/spl-token only.
// Run: npm run bench:program   (exit code 1 when a target is missed)
process.env.RUST_LOG ??= 'error';

import { Keypair, PublicKey } from '@solana/web3.js';
import { IssuerStatus } from '../../shared/program/codec';
import { certificatePda } from '../../shared/program/pda';
import { soulboundMintSteps } from '../../shared/program/mint';
import { ReasonCode } from '../../shared/program/reasons';
import { Attesta, aHash } from '../program/support/attesta';
import { startBankrun } from '../program/support/bankrun';
import { startLiteSvm } from '../program/support/litesvm';
import { aMintTx, givenIssuer } from '../program/support/given';
import type { Runtime, TxResult } from '../program/support/runtime';

const TARGETS = { anchorCertificateCu: 5_000, recordVerificationCu: 3_000, certificateBytes: 200, mintRatio: 1.2 };

/** A random document hash whose certificate PDA has the canonical bump 255. */
function canonicalBump255Hash(programId: PublicKey): Uint8Array {
  for (;;) {
    const hash = aHash();
    if (certificatePda(hash, programId)[1] === 255) return hash;
  }
}

/** CU our program consumed at the top level of a transaction (from its "consumed" log line). */
function programCu(res: TxResult, programId: PublicKey): number {
  const re = new RegExp(`^Program ${programId.toBase58()} consumed (\\d+) of`);
  let total = 0;
  for (const l of res.logs) {
    const m = re.exec(l);
    if (m) total += Number(m[1]);
  }
  return total;
}

function must(res: TxResult, what: string): TxResult {
  if (!res.ok) throw new Error(`${what} failed: ${res.error}\n${res.logs.join('\n')}`);
  return res;
}

interface Measured {
  runtime: string;
  cu: Record<string, number>;
  accounts: Record<string, { bytes: number; rent: bigint }>;
  wholeMint: number;
  bareMint: number;
}

async function measure(rt: Runtime): Promise<Measured> {
  const t = new Attesta(rt);
  const cu: Record<string, number> = {};
  const run = async (name: string, ix: Promise<import('@solana/web3.js').TransactionInstruction>, signers: Keypair[]) => {
    const res = must(await t.send(await ix, signers), name);
    cu[name] = programCu(res, rt.programId);
    return res;
  };

  t.admin = await t.funded();
  t.verifier = Keypair.generate();
  await run('initialize', t.initializeIx(t.admin.publicKey), [t.admin]);
  await run('set_verifier', t.setVerifierIx({ admin: t.admin.publicKey, verifier: t.verifier.publicKey, enabled: true }), [t.admin]);
  const authority = Keypair.generate();
  await run('register_issuer', t.registerIssuerIx({ authority: authority.publicKey, name: 'Example University', uri: 'https://example.edu' }), [authority]);
  const issuer = t.issuerPda(authority.publicKey);
  await run('set_issuer_status', t.setIssuerStatusIx({ issuer, status: IssuerStatus.Approved, admin: t.admin.publicKey }), [t.admin]);

  // Certificates at bump-255 addresses, so the PDA search of a new record costs the same every run
  // (+338 CU per bump below 255, notes/program-status.md).
  const holder = Keypair.generate();
  const hash = canonicalBump255Hash(rt.programId);
  await run('anchor_certificate', t.anchorCertificateIx({ hash, holder: holder.publicKey, verifier: t.verifier.publicKey }), [t.verifier]);
  await run('record_verification', t.recordVerificationIx({ hash, verifier: t.verifier.publicKey, verified: true }), [t.verifier]);
  await run('request_confirmation', t.requestConfirmationIx({ hash, holder: holder.publicKey, issuerAuthority: authority.publicKey }), [holder]);
  await run('confirm_certificate', t.confirmCertificateIx({ hash, authority: authority.publicKey }), [authority]);

  const plainHash = canonicalBump255Hash(rt.programId);
  must(await t.send(await t.anchorCertificateIx({ hash: plainHash, holder: holder.publicKey, verifier: t.verifier.publicKey }), [t.verifier]), 'anchor');

  await run('issue_certificate (new record)', t.issueCertificateIx({ hash: canonicalBump255Hash(rt.programId), holder: holder.publicKey, authority: authority.publicKey }), [authority]);
  // Issued over a record another wallet anchored (no account creation, no PDA search).
  const squatted = canonicalBump255Hash(rt.programId);
  must(await t.send(await t.anchorCertificateIx({ hash: squatted, holder: Keypair.generate().publicKey, verifier: t.verifier.publicKey }), [t.verifier]), 'anchor');
  await run('issue_certificate (superseding)', t.issueCertificateIx({ hash: squatted, holder: holder.publicKey, authority: authority.publicKey }), [authority]);

  // Whole soulbound mint (our builder) vs the same Token-2022 steps without our instruction.
  const c = { hash, holder, certificate: t.certificatePda(hash) };
  const whole = aMintTx(t, c);
  const wholeRes = must(await rt.send(whole.instructions, whole.signers), 'whole mint');
  cu.mint_certificate = programCu(wholeRes, rt.programId);

  const bareMint = Keypair.generate();
  const bareHolder = Keypair.generate();
  const { mintCertificate: _ours, ...bareSteps } = soulboundMintSteps({
    payer: rt.payer.publicKey,
    holder: bareHolder.publicKey,
    mint: bareMint.publicKey,
    hash: aHash(),
    title: 'BSc Computer Science',
    uri: `https://attesta.example/c/${c.certificate.toBase58()}`,
    programId: rt.programId,
  }).steps;
  const bareRes = must(await rt.send(Object.values(bareSteps), [bareMint]), 'bare mint');

  await run('revoke_certificate', t.revokeCertificateIx({ hash: plainHash, authority: t.verifier.publicKey, reasonCode: ReasonCode.RevokedFraud }), [t.verifier]);

  const accounts: Measured['accounts'] = {};
  for (const [name, address] of [
    ['Registry', t.registry],
    ['Issuer', issuer],
    ['Certificate', c.certificate],
    ['NFT mint (Token-2022)', whole.mint.publicKey],
    ['holder token account', whole.holderTokenAccount],
  ] as const) {
    const acc = await rt.getAccount(address);
    if (!acc) throw new Error(`${name} missing`);
    accounts[name] = { bytes: acc.data.length, rent: await rt.minimumBalanceForRentExemption(acc.data.length) };
  }
  return { runtime: rt.name, cu, accounts, wholeMint: Number(wholeRes.computeUnits), bareMint: Number(bareRes.computeUnits) };
}

function table(rows: (string | number)[][], header: string[]) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [line(all[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...all.slice(1).map(line)].join('\n');
}

async function main() {
  const results: Measured[] = [];
  for (const start of [startLiteSvm, startBankrun]) {
    try {
      results.push(await measure(await start()));
    } catch (e) {
      console.error(`${start.name}: ${(e as Error).message}`);
      process.exitCode = 1;
    }
  }
  if (!results.length) return;
  const names = Object.keys(results[0].cu);
  console.log('\nCompute units per instruction (our program only)\n');
  console.log(table(names.map((n) => [n, ...results.map((r) => r.cu[n])]), ['instruction', ...results.map((r) => r.runtime)]));

  console.log('\nAccounts: size and rent-exempt minimum\n');
  const accNames = Object.keys(results[0].accounts);
  console.log(table(accNames.map((n) => [n, results[0].accounts[n].bytes, results[0].accounts[n].rent.toString()]), ['account', 'bytes', 'rent-exempt lamports']));

  console.log('\nSoulbound mint transaction (all instructions, all programs)\n');
  console.log(
    table(
      [
        ['bare Token-2022 soulbound mint (spl-token only)', ...results.map((r) => r.bareMint)],
        ['whole mint (same + mint_certificate)', ...results.map((r) => r.wholeMint)],
        ['ratio whole / bare', ...results.map((r) => (r.wholeMint / r.bareMint).toFixed(3))],
      ],
      ['transaction CU', ...results.map((r) => r.runtime)],
    ),
  );

  console.log('\nTargets\n');
  const rows: (string | number)[][] = [];
  let failed = false;
  for (const r of results) {
    const checks: [string, number, number, string][] = [
      ['anchor_certificate CU', r.cu.anchor_certificate, TARGETS.anchorCertificateCu, '≤'],
      ['record_verification CU', r.cu.record_verification, TARGETS.recordVerificationCu, '≤'],
      ['Certificate bytes', r.accounts.Certificate.bytes, TARGETS.certificateBytes, '≤'],
      ['whole mint / bare mint', Number((r.wholeMint / r.bareMint).toFixed(3)), TARGETS.mintRatio, '≤'],
    ];
    for (const [what, value, target, op] of checks) {
      const ok = value <= target;
      failed ||= !ok;
      rows.push([`${what} [${r.runtime}]`, value, `${op} ${target}`, ok ? 'PASS' : 'FAIL']);
    }
  }
  console.log(table(rows, ['target', 'measured', 'limit', 'result']));
  if (failed) process.exitCode = 1;
}

await main();

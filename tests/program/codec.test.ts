// shared/program's Anchor-free pieces (PDAs, decoders, reason codes) agree with the IDL, with
// Anchor's own coder and with SPEC.md, so light clients read exactly what the program wrote.
import { readFileSync } from 'node:fs';
import { Keypair } from '@solana/web3.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeCertificate, decodeIssuer, decodeRegistry, AccountDecodeError } from '../../shared/program/codec';
import { REASON_NAMES } from '../../shared/program/reasons';
import { Attesta, BN, aHash } from './support/attesta';
import { givenIssuer, givenMinted, givenRegistry } from './support/given';
import { plain } from './support/plain';
import { REPO_ROOT } from './support/paths';
import { RUNTIMES } from './support/runtimes';

describe('reason codes', () => {
  it('are SPEC.md\'s list', () => {
    const spec = readFileSync(`${REPO_ROOT}programs/certificates/SPEC.md`, 'utf8');
    const line = /^Reason codes .*?:\s*([\s\S]*?)\.\n/m.exec(spec)![1];
    const fromSpec = Object.fromEntries([...line.matchAll(/(\d+) (\w+)/g)].map((m) => [m[1], m[2]]));
    expect({ ...REASON_NAMES }).toEqual(fromSpec);
  });
});

describe.each(RUNTIMES)('shared/program codec and PDAs [$name]', ({ start }) => {
  let t: Attesta;
  let minted: Awaited<ReturnType<typeof givenMinted>>;
  let issuerAuthority: Keypair;
  beforeAll(async () => {
    t = await givenRegistry(await start());
    issuerAuthority = (await givenIssuer(t, 1, 'Université de Genève')).authority;
    minted = await givenMinted(t);
  });

  it('pda.ts derives what Anchor resolves from the IDL seeds', async () => {
    const hash = aHash();
    const authority = Keypair.generate().publicKey;
    const anchorKeys = await t.program.methods
      .anchorCertificate(Array.from(hash), new BN(0))
      .accounts({ holder: Keypair.generate().publicKey, verifier: t.verifier.publicKey, payer: t.rt.payer.publicKey })
      .pubkeys();
    const issuerKeys = await t.program.methods
      .registerIssuer('x', '')
      .accounts({ authority, payer: t.rt.payer.publicKey })
      .pubkeys();
    expect(plain({ certificate: anchorKeys.certificate, registry: anchorKeys.registry, issuer: issuerKeys.issuer })).toEqual(
      plain({ certificate: t.certificatePda(hash), registry: t.registry, issuer: t.issuerPda(authority) }),
    );
  });

  it.each(['registry', 'issuer', 'certificate'] as const)('decodes a %s exactly like Anchor\'s coder', async (kind) => {
    const address = { registry: t.registry, issuer: t.issuerPda(issuerAuthority.publicKey), certificate: minted.certificate }[kind];
    const data = (await t.rt.getAccount(address))!.data;
    const ours = { registry: decodeRegistry, issuer: decodeIssuer, certificate: decodeCertificate }[kind](data) as unknown as Record<string, unknown>;
    const anchor = t.program.coder.accounts.decode(kind, data) as Record<string, unknown>;
    // Align representations: Anchor keeps zero keys, enum objects and all verifier slots.
    const zeroToNull = (v: unknown) => (v === '11111111111111111111111111111111' ? null : v);
    const enumToNumber = (v: unknown, variants: string[]) => (v && typeof v === 'object' ? variants.indexOf(Object.keys(v)[0]) : v);
    const a = plain(anchor) as Record<string, unknown>;
    if (kind === 'registry') a.verifiers = (a.verifiers as string[]).filter((k) => zeroToNull(k) !== null);
    if (kind === 'issuer') a.status = enumToNumber(a.status, ['pending', 'approved', 'suspended']);
    if (kind === 'certificate') {
      for (const k of ['issuer', 'verifier', 'nftMint']) a[k] = zeroToNull(a[k]);
      a.status = enumToNumber(a.status, ['pending', 'verified', 'rejected', 'revoked']);
      a.tier = enumToNumber(a.tier, ['none', 'platformVerified', 'issuerConfirmed']);
    }
    expect(plain(ours)).toEqual(a);
  });

  it('refuses bytes of another account type or too short', async () => {
    const registry = (await t.rt.getAccount(t.registry))!.data;
    expect(() => decodeCertificate(registry)).toThrow(AccountDecodeError);
    expect(() => decodeRegistry(registry.subarray(0, 100))).toThrow(AccountDecodeError);
  });
});

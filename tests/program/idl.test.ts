// The IDL is written by hand (no `anchor build` here), so this file pins it to its two other
// sources of truth: the Rust program (error.rs, state LEN constants) and SPEC.md, and to the chain.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { Keypair } from '@solana/web3.js';
import { sha256 } from '@noble/hashes/sha2';
import { beforeAll, describe, expect, it } from 'vitest';
import rawIdl from '../../shared/program/idl/certificates.json';
import { renderTypes, TYPES_PATH } from '../../shared/program/types/generate';
import { CERTIFICATES_PROGRAM_ID } from '../../shared/program/ids';
import { CERTIFICATE_LEN, ISSUER_LEN, MAX_ISSUER_NAME, MAX_ISSUER_URI, REGISTRY_LEN } from '../../shared/program/codec';
import { REPO_ROOT } from './support/paths';
import { RUNTIMES } from './support/runtimes';
import { givenAnchored, givenIssuer, givenRegistry } from './support/given';
import type { Attesta } from './support/attesta';

type IdlType = string | { array: [IdlType, number] } | { defined: { name: string } } | { option: IdlType } | { vec: IdlType };
interface IdlField { name: string; type: IdlType }
interface IdlTypeDef { name: string; type: { kind: 'struct'; fields: IdlField[] } | { kind: 'enum'; variants: { name: string }[] } }
interface IdlAccountItem { name: string; writable?: boolean; signer?: boolean; optional?: boolean; address?: string }
const idl = rawIdl as unknown as {
  address: string;
  metadata: { name: string; version: string; spec: string };
  instructions: { name: string; discriminator: number[]; accounts: IdlAccountItem[]; args: IdlField[] }[];
  accounts: { name: string; discriminator: number[] }[];
  events: { name: string; discriminator: number[] }[];
  errors: { code: number; name: string; msg: string }[];
  types: IdlTypeDef[];
};

const SRC = `${REPO_ROOT}programs/certificates/src`;
const SPEC = readFileSync(`${REPO_ROOT}programs/certificates/SPEC.md`, 'utf8');
const disc = (s: string) => Array.from(sha256(new TextEncoder().encode(s)).slice(0, 8));
const typeDef = (name: string) => idl.types.find((t) => t.name === name);

// Strings are allocated at their maximum length (SPEC.md: Issuer name ≤ 64, uri ≤ 128).
const STRING_MAX: Record<string, number> = { 'Issuer.name': MAX_ISSUER_NAME, 'Issuer.uri': MAX_ISSUER_URI };

function borshSize(t: IdlType, path: string): number {
  if (typeof t === 'string') {
    const sizes: Record<string, number> = { bool: 1, u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, u64: 8, i64: 8, pubkey: 32 };
    if (t === 'string') {
      const max = STRING_MAX[path];
      if (max === undefined) throw new Error(`no maximum length known for string ${path}`);
      return 4 + max;
    }
    if (!(t in sizes)) throw new Error(`unsized type ${t} at ${path}`);
    return sizes[t];
  }
  if ('array' in t) return borshSize(t.array[0], path) * t.array[1];
  if ('defined' in t) {
    const def = typeDef(t.defined.name);
    if (!def) throw new Error(`undefined type ${t.defined.name}`);
    if (def.type.kind === 'enum') return 1; // unit variants only
    return def.type.fields.reduce((n, f) => n + borshSize(f.type, `${def.name}.${f.name}`), 0);
  }
  throw new Error(`variable-size type at ${path}`);
}
const accountSpace = (name: string) => 8 + borshSize({ defined: { name } }, name);

/** Field offsets of an account from the IDL (strings after the fixed part get no fixed offset). */
function idlOffsets(name: string): Map<string, number | null> {
  const def = typeDef(name)!;
  if (def.type.kind !== 'struct') throw new Error(`${name} is not a struct`);
  const out = new Map<string, number | null>([['discriminator', 0]]);
  let off: number | null = 8;
  for (const f of def.type.fields) {
    out.set(f.name, off);
    off = f.type === 'string' || off === null ? null : off + borshSize(f.type, `${name}.${f.name}`);
  }
  return out;
}

// ── Rust source parsing ────────────────────────────────────────────────────────────────────────
function rustErrors(): { code: number; name: string; msg: string }[] {
  const src = readFileSync(`${SRC}/error.rs`, 'utf8');
  const codes = [...src.matchAll(/^\s*(\w+)\s*=\s*(\d+),/gm)].map((m) => ({ name: m[1], code: Number(m[2]) }));
  const msgs = new Map([...src.matchAll(/(\w+)\s*=>\s*\(\s*"(\w+)",\s*"([^"]*)"\s*\)/g)].map((m) => [m[1], { logged: m[2], msg: m[3] }]));
  return codes.map((c) => {
    const d = msgs.get(c.name);
    if (!d) throw new Error(`error.rs: no message for ${c.name}`);
    expect(d.logged, `error.rs logs ${c.name} under another name`).toBe(c.name);
    return { ...c, msg: d.msg };
  });
}

/** Evaluates a `usize` constant of a Rust file: integer literals, + and *, parentheses and
 * other constants of the same file (the forms LEN constants are written in). */
function rustConst(src: string, name: string, where: string, depth = 0): number {
  const m = new RegExp(`(?:pub )?const ${name}\\s*:\\s*usize\\s*=\\s*([^;]+);`).exec(src);
  if (!m || depth > 8) throw new Error(`${where}: no usize constant ${name}`);
  const expr = m[1].replace(/_(?=\d)/g, '').replace(/\b([A-Z][A-Z0-9_]*)\b/g, (id) => String(rustConst(src, id, where, depth + 1)));
  if (!/^[\d\s+*()]+$/.test(expr)) throw new Error(`${where}: cannot evaluate ${name} = ${m[1]}`);
  return Function(`"use strict"; return (${expr});`)() as number;
}

function rustLen(account: string): number {
  const file = `${SRC}/state/${account.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}.rs`;
  if (!existsSync(file)) throw new Error(`missing ${file}`);
  return rustConst(readFileSync(file, 'utf8'), 'LEN', file);
}

// ── SPEC.md parsing ────────────────────────────────────────────────────────────────────────────
function specErrors() {
  return [...SPEC.matchAll(/^\| (\d{4}) \| (\w+) \| (.+?) \|$/gm)].map((m) => ({ code: Number(m[1]), name: m[2], msg: m[3] }));
}
function specAccountSizes(): Record<string, number> {
  return Object.fromEntries([...SPEC.matchAll(/^### `(\w+)` — .* — (\d+) bytes$/gm)].map((m) => [m[1], Number(m[2])]));
}
function specAccountOffsets(name: string): [string, number | null][] {
  const section = SPEC.split(/^### /m).find((s) => s.startsWith(`\`${name}\``))!.split(/^## /m)[0];
  return [...section.matchAll(/^\| (\d+|\.\.) \| (\w+) \|/gm)].map((m) => [m[2], m[1] === '..' ? null : Number(m[1])]);
}
function specInstructions() {
  return [...SPEC.matchAll(/^\| (\d+) \| `(\w+)` \| (.+?) \| (.+) \|$/gm)].map((m) => {
    const args = m[3] === '—' ? [] : m[3].replace(/`/g, '').split(/,\s*(?![^[]*\])/).map((a) => {
      const [name, type] = a.split(':').map((s) => s.trim());
      return { name, type };
    });
    const accounts = [...m[4].matchAll(/`(\w+)`(?:\s*\(([^)]*(?:\([^)]*\)[^)]*)*)\))?\s*(?:,|$)/g)].map((a) => {
      const flags = (a[2] ?? '').split(/[,:;]/).map((s) => s.trim());
      return { name: a[1], writable: flags.includes('w'), signer: flags.includes('s'), optional: (a[2] ?? '').startsWith('optional') };
    });
    return { index: Number(m[1]), name: m[2], args, accounts };
  });
}
function specEvents(): { name: string; fields: string[] }[] {
  const section = SPEC.split(/^## Events$/m)[1].split(/^## /m)[0];
  return [...section.matchAll(/`(\w+)\{([^}]*)\}`/g)].map((m) => ({ name: m[1], fields: m[2].split(',').map((s) => s.trim()) }));
}
const specType = (t: string): IdlType => {
  const arr = /^\[(\w+);\s*(\d+)\]$/.exec(t);
  if (arr) return { array: [arr[1], Number(arr[2])] };
  return /^[A-Z]/.test(t) ? { defined: { name: t } } : t;
};

describe('IDL ↔ names (Anchor discriminators)', () => {
  it('has the program id and spec version Anchor 0.30+ reads', () => {
    expect(idl.address).toBe(CERTIFICATES_PROGRAM_ID.toBase58());
    expect(idl.metadata).toMatchObject({ name: 'certificates', spec: '0.1.0' });
  });

  it.each(idl.instructions.map((i) => [i.name, i.discriminator]))('instruction %s = sha256("global:%s")[..8]', (name, d) => {
    expect(d).toEqual(disc(`global:${name}`));
  });
  it.each(idl.accounts.map((a) => [a.name, a.discriminator]))('account %s = sha256("account:%s")[..8]', (name, d) => {
    expect(d).toEqual(disc(`account:${name}`));
  });
  it.each(idl.events.map((e) => [e.name, e.discriminator]))('event %s = sha256("event:%s")[..8]', (name, d) => {
    expect(d).toEqual(disc(`event:${name}`));
  });

  it('Rust dispatches on exactly the IDL discriminators', () => {
    // The program may write discriminators as byte literals or compute them: accept either form,
    // but every IDL instruction must be reachable from the source.
    const src = readdirSync(SRC, { recursive: true })
      .filter((f) => String(f).endsWith('.rs'))
      .map((f) => readFileSync(`${SRC}/${f}`, 'utf8'))
      .join('\n');
    for (const ix of idl.instructions) {
      const bytes = ix.discriminator.join(',\\s*');
      const asLiteral = new RegExp(`\\[\\s*${bytes}\\s*,?\\s*\\]`);
      const asHex = new RegExp(`\\[\\s*${ix.discriminator.map((b) => `0x${b.toString(16).padStart(2, '0')}`).join(',\\s*')}\\s*,?\\s*\\]`, 'i');
      expect(asLiteral.test(src) || asHex.test(src) || src.includes(`"global:${ix.name}"`), `no discriminator for ${ix.name} in Rust`).toBe(true);
    }
    // …and the processor dispatches no instruction the IDL does not have.
    const processor = readFileSync(`${SRC}/processor.rs`, 'utf8');
    const arms = [...processor.matchAll(/^\s*(\w+)::DISCRIMINATOR => \1::process\(/gm)].map((m) => m[1]);
    expect(arms.sort()).toEqual(idl.instructions.map((i) => i.name).sort());
  });

  it('Rust emits exactly the IDL\'s event discriminators (events.rs)', () => {
    const src = readFileSync(`${SRC}/events.rs`, 'utf8');
    const rust = [...src.matchAll(/pub const (\w+): \[u8; 8\] = \[([^\]]+)\];/g)].map((m) => ({
      name: m[1],
      discriminator: m[2].split(',').map((b) => Number(b.trim())),
    }));
    const screaming = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
    expect(rust.map((e) => e.name).sort()).toEqual(idl.events.map((e) => screaming(e.name)).sort());
    for (const e of idl.events) expect(rust.find((r) => r.name === screaming(e.name))!.discriminator, e.name).toEqual(e.discriminator);
  });

  it('types/certificates.ts is the camelCase rendering of the IDL (regenerate with shared/program/types/generate.ts)', () => {
    expect(readFileSync(TYPES_PATH, 'utf8')).toBe(renderTypes(JSON.stringify(rawIdl)));
  });
});

describe('IDL ↔ Rust error.rs ↔ SPEC.md errors', () => {
  it('the IDL lists exactly the Rust errors, with the same codes, names and messages', () => {
    const byCode = (a: { code: number }, b: { code: number }) => a.code - b.code;
    expect([...idl.errors].sort(byCode)).toEqual(rustErrors().sort(byCode));
  });
  it('the IDL lists exactly SPEC.md\'s error table', () => {
    const byCode = (a: { code: number }, b: { code: number }) => a.code - b.code;
    expect([...idl.errors].sort(byCode)).toEqual(specErrors().sort(byCode));
  });
  it('codes never change: clients and stored transaction logs name errors by number', () => {
    // Append new errors; never renumber or rename one.
    // prettier-ignore
    const stable: Record<number, string> = { 6000: 'InvalidInstruction', 6001: 'InvalidInstructionData', 6002: 'NotEnoughAccounts', 6003: 'MissingSignature', 6004: 'AccountNotWritable', 6005: 'InvalidAccountOwner', 6006: 'InvalidDiscriminator', 6007: 'InvalidPda', 6008: 'AccountAlreadyInitialized', 6009: 'InvalidProgramId', 6010: 'ArithmeticOverflow', 6011: 'AccountDataTooSmall', 6020: 'Unauthorized', 6021: 'NotAVerifier', 6022: 'VerifierListFull', 6023: 'VerifierNotFound', 6024: 'InvalidName', 6025: 'InvalidUri', 6030: 'IssuerNotApproved', 6031: 'IssuerSuspended', 6032: 'InvalidIssuerStatus', 6040: 'HashAlreadyAnchored', 6041: 'InvalidCertificateStatus', 6042: 'AlreadyVerified', 6043: 'CertificateRevoked', 6044: 'AlreadyRevoked', 6045: 'CertificateExpired', 6046: 'NotVerified', 6047: 'AlreadyMinted', 6048: 'NotHolder', 6049: 'NotAuthorizedToRevoke', 6050: 'AlreadyConfirmed', 6051: 'InvalidExpiry', 6052: 'InvalidReasonCode', 6053: 'ConfirmationNotRequested', 6054: 'RecordAlreadyNamesHolder', 6060: 'InvalidMint', 6061: 'MintNotNonTransferable', 6062: 'MintAuthorityNotRevoked', 6063: 'InvalidSupply', 6064: 'MetadataMismatch', 6065: 'InvalidTokenAccount' };
    expect(Object.fromEntries(idl.errors.map((e) => [e.code, e.name]))).toEqual(stable);
  });
  it('codes start at Anchor\'s 6000 and are unique', () => {
    const codes = idl.errors.map((e) => e.code);
    expect(Math.min(...codes)).toBe(6000);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('IDL ↔ SPEC.md instructions, accounts, events', () => {
  const spec = specInstructions();
  it('has SPEC.md\'s eleven instructions, in SPEC.md\'s order', () => {
    expect(spec.map((i) => i.name)).toEqual(idl.instructions.map((i) => i.name));
    expect(spec.map((i) => i.index)).toEqual(spec.map((_, n) => n + 1));
    expect(spec).toHaveLength(11);
  });
  it.each(spec.map((s) => [s.name, s]))('%s: args and accounts in SPEC.md order, with its signer/writable flags', (name, s) => {
    const ix = idl.instructions.find((i) => i.name === name)!;
    expect(ix.args.map((a) => ({ name: a.name, type: a.type }))).toEqual(s.args.map((a) => ({ name: a.name, type: specType(a.type) })));
    expect(ix.accounts.map((a) => ({ name: a.name, writable: !!a.writable, signer: !!a.signer, optional: !!a.optional }))).toEqual(s.accounts);
  });
  it('SPEC.md lists exactly the IDL\'s events', () => {
    expect(specEvents().map((e) => e.name).sort()).toEqual(idl.events.map((e) => e.name).sort());
  });
  it.each(specEvents().map((e) => [e.name, e.fields]))('event %s has fields %j', (name, fields) => {
    const def = typeDef(name as string);
    expect(def?.type.kind).toBe('struct');
    expect(def!.type.kind === 'struct' && def!.type.fields.map((f) => f.name)).toEqual(fields);
    expect(idl.events.some((e) => e.name === name)).toBe(true);
  });
  it.each(['Registry', 'Issuer', 'Certificate'])('%s: field offsets are SPEC.md\'s table', (name) => {
    const offsets = idlOffsets(name);
    expect(specAccountOffsets(name)).toEqual([...offsets.entries()]);
  });
});

describe('account sizes: IDL Borsh size = Rust LEN = SPEC.md = shared codec', () => {
  const specSizes = specAccountSizes();
  const codec: Record<string, number> = { Registry: REGISTRY_LEN, Issuer: ISSUER_LEN, Certificate: CERTIFICATE_LEN };
  it.each(['Registry', 'Issuer', 'Certificate'])('%s', (name) => {
    const fromIdl = accountSpace(name);
    expect({ rust: rustLen(name), spec: specSizes[name], codec: codec[name] }).toEqual({ rust: fromIdl, spec: fromIdl, codec: fromIdl });
  });
  it('Certificate stays within the 200-byte target', () => {
    expect(accountSpace('Certificate')).toBeLessThanOrEqual(200);
  });
});

describe.each(RUNTIMES)('account sizes on chain [$name]', ({ start }) => {
  let t: Attesta;
  beforeAll(async () => {
    t = await givenRegistry(await start());
  });
  it('Registry, Issuer and Certificate accounts are created with the IDL size and rent-exempt', async () => {
    const { issuer } = await givenIssuer(t, 0, 'x'.repeat(MAX_ISSUER_NAME));
    const { certificate } = await givenAnchored(t);
    for (const [name, address] of [['Registry', t.registry], ['Issuer', issuer], ['Certificate', certificate]] as const) {
      const acc = (await t.rt.getAccount(address))!;
      expect(acc.owner.equals(t.programId), name).toBe(true);
      expect(acc.data.length, name).toBe(accountSpace(name));
      expect(acc.data.subarray(0, 8)).toEqual(Buffer.from(disc(`account:${name}`)));
      expect(BigInt(acc.lamports) >= (await t.rt.minimumBalanceForRentExemption(acc.data.length)), name).toBe(true);
    }
  });
  it('Anchor\'s coder decodes what the program wrote', async () => {
    const holder = Keypair.generate();
    const c = await givenAnchored(t, { holder });
    const acc = (await t.rt.getAccount(c.certificate))!;
    const decoded = t.program.coder.accounts.decode('certificate', acc.data);
    expect(decoded.holder.equals(holder.publicKey)).toBe(true);
    expect(decoded.status).toEqual({ pending: {} });
  });
});

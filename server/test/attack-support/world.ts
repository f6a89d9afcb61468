// Shared set-up for the attack tests (server/test/attack-*.test.ts): a holder with a certificate,
// institutions approved on the embedded chain, transactions sent through /rpc like any wallet would.
import { Connection, Keypair, LAMPORTS_PER_SOL, sendAndConfirmTransaction, Transaction, type TransactionInstruction } from '@solana/web3.js';
import { expect } from 'vitest';
import { IssuerStatus, fromHex } from '../../../shared/program/codec';
import type { Server } from '../../src/app';
import fs from 'node:fs';
import { certForm, makeClient, makePdf, signIn, startTestServer, tmpDataDir, waitFor, newWallet } from '../helpers';

export const rpcConnection = (s: Server) => new Connection(`${s.url}/rpc`, { commitment: 'confirmed', wsEndpoint: `${s.url.replace(/^http/, 'ws')}/rpc` });

export async function fund(conn: Connection, kp: Keypair, sol = 1) {
  const sig = await conn.requestAirdrop(kp.publicKey, sol * LAMPORTS_PER_SOL);
  await conn.confirmTransaction(sig, 'confirmed');
}

export function send(conn: Connection, payer: Keypair, ix: TransactionInstruction | TransactionInstruction[], ...signers: Keypair[]) {
  return sendAndConfirmTransaction(conn, new Transaction().add(...(Array.isArray(ix) ? ix : [ix])), [payer, ...signers], { commitment: 'confirmed' });
}

export async function approvedIssuer(s: Server, kp: Keypair, name: string) {
  await s.services.chain.registerIssuer({ authority: kp, name, uri: `${name.toLowerCase().replace(/\W+/g, '')}.example` }, { kind: 'register_issuer' });
  await s.services.chain.setIssuerStatus({ authority: kp.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
}

export const INSTITUTION = 'Northfield Institute of Technology';

/** A server of a test file's own with `institution` approved on chain and funded: where the attack tests start. */
export async function startWorld(institution: Keypair, name = INSTITUTION) {
  const dir = tmpDataDir();
  const server = await startTestServer(dir);
  const conn = rpcConnection(server);
  await approvedIssuer(server, institution, name);
  await fund(conn, institution);
  return {
    server,
    conn,
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type World = Awaited<ReturnType<typeof startWorld>>;

export async function finalRow(c: ReturnType<typeof makeClient>, id: string, timeoutMs = 60_000) {
  return waitFor(async () => {
    const r = await c.client.certificate.byId.query({ id });
    return r.verification_status !== 'pending' && r;
  }, timeoutMs);
}

/** Waits until the certificate has no queued or running verification job. */
export async function jobsSettled(s: Server, id: string, timeoutMs = 60_000) {
  await waitFor(async () => {
    const active = await s.services.db.selectFrom('verification_job').select('id').where('certificate_id', '=', id).where('status', 'in', ['queued', 'running']).executeTakeFirst();
    return !active;
  }, timeoutMs);
}

/** A signed-in holder with a certificate whose text names its claims (platform verified unless `wait` is false). */
export async function holderWithCertificate(s: Server, title: string, opts: { wait?: boolean; lines?: string[]; claims?: Partial<Record<'title' | 'institution_name' | 'program_name' | 'issue_date', string>> } = {}) {
  const c = makeClient(s.url);
  const wallet = newWallet();
  const { user } = await signIn(c, wallet);
  const pdf = await makePdf(opts.lines ?? [INSTITUTION, title, 'Marine Biology', 'awarded to A. Holder']);
  const created = await c.client.certificate.create.mutate(
    certForm({ title, institution_name: INSTITUTION, program_name: 'Marine Biology', issue_date: '2024-05-01', ...opts.claims }, { bytes: pdf, name: 'cert.pdf' }),
  );
  const holder = Keypair.fromSecretKey(wallet.secretKey);
  const hash = fromHex(created.sha256);
  if (opts.wait === false) return { c, id: created.id, hash, holder, pdf, user, row: created };
  const row = await finalRow(c, created.id);
  return { c, id: created.id, hash, holder, pdf, user, row };
}

export async function expectVerified(c: ReturnType<typeof makeClient>, id: string) {
  const r = await finalRow(c, id);
  expect(r.verification_status).toBe('verified');
  return r;
}

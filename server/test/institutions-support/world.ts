// A server with institutions: a real DNS server and a real HTTPS server on loopback for domain proofs
// (server/test/net-peers), one operator wallet in ATTESTA_OPERATOR_WALLETS, browsers per wallet.
import fs from 'node:fs';
import path from 'node:path';
import { Keypair, Transaction } from '@solana/web3.js';
import nacl from 'tweetnacl';
import type { Server } from '../../src/app';
import { certForm, makeClient, makePdf, newWallet, signIn, startTestServer, tmpDataDir, waitFor } from '../helpers';
import { toB64, walletSign } from '../mint-support/flow';
import { startDnsServer } from '../net-peers/dns';
import { startHttpsSite, type WellKnownSite } from '../net-peers/https';

export type Browser = ReturnType<typeof makeClient> & { keypair: Keypair; wallet: ReturnType<typeof newWallet>; userId: string };

export interface InstitutionWorld {
  server: Server;
  dns: Awaited<ReturnType<typeof startDnsServer>>;
  site: WellKnownSite;
  operator: Browser;
  browser(): Promise<Browser>;
  close(): Promise<void>;
}

export async function buildInstitutionWorld(env: Record<string, string> = {}): Promise<InstitutionWorld> {
  const dir = tmpDataDir();
  const dns = await startDnsServer();
  const site = await startHttpsSite(['northfield.test', 'southfield.test']);
  for (const host of ['northfield.test', 'southfield.test']) dns.zone.a.set(host, ['127.0.0.1']);
  const caPath = path.join(dir, 'test-ca.pem');
  fs.writeFileSync(caPath, site.ca);
  const operatorWallet = newWallet();
  const server = await startTestServer(dir, {
    ATTESTA_OPERATOR_WALLETS: operatorWallet.address,
    ATTESTA_DNS_SERVERS: dns.server,
    ATTESTA_DOMAIN_PROOF_HTTPS_PORT: String(site.port),
    ATTESTA_DOMAIN_PROOF_CA_PATH: caPath,
    ATTESTA_DOMAIN_PROOF_ALLOW_PRIVATE: 'true',
    ATTESTA_DOMAIN_PROOF_TIMEOUT_MS: '3000',
    ...env,
  });
  const browser = async (wallet = newWallet()): Promise<Browser> => {
    const c = makeClient(server.url);
    const { user } = await signIn(c, wallet);
    return Object.assign(c, { keypair: Keypair.fromSecretKey(wallet.secretKey), wallet, userId: user.id });
  };
  const operator = await browser(operatorWallet);
  return {
    server,
    dns,
    site,
    operator,
    browser: () => browser(),
    async close() {
      await server.close();
      await dns.close();
      await site.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What the wallet does with a prepared transaction: sign it and hand it back (base64). */
export const signed = (prepared: { transaction: string }, b: { keypair: Keypair }) => toB64(walletSign(prepared.transaction, b.keypair));

/** A transaction whose wallet signature slot holds `impostor`'s signature (what a stolen prepared transaction signed by someone else looks like). */
export function signedByImpostor(prepared: { transaction: string }, walletKey: Keypair, impostor: Keypair) {
  const tx = Transaction.from(Buffer.from(prepared.transaction, 'base64'));
  tx.addSignature(walletKey.publicKey, Buffer.from(nacl.sign.detached(tx.serializeMessage(), impostor.secretKey)));
  return toB64(tx);
}

/** Registers an institution, proves its domain by DNS TXT and has the operator approve it. */
export async function approvedInstitution(w: InstitutionWorld, name: string, domain: string): Promise<Browser> {
  const b = await w.browser();
  const prepared = await b.client.issuer.register.mutate({ name, domain });
  await b.client.issuer.submit.mutate({ signedTransaction: signed(prepared, b) });
  w.dns.zone.txt.set(`_attesta.${domain}`, [`attesta-issuer=${b.wallet.address}`]);
  await b.client.issuer.checkDomain.mutate();
  await w.operator.client.operator.setStatus.mutate({ authority: b.wallet.address, status: 'approved' });
  return b;
}

export function issueForm(fields: Record<string, string>, pdf: Uint8Array, name = 'diploma.pdf') {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  fd.set('certificate_file', new File([pdf as BlobPart], name, { type: 'application/pdf' }));
  return fd;
}

export type Claims = { title: string; institution_name: string; program_name: string; issue_date: string };

/**
 * A new holder with a certificate of `claims` whose first run has settled (verified, rejected, or
 * pending awaiting confirmation). The PDF names the claims (`lines` instead, or `pdfHolder` as the
 * holder's name: another name than the profile's is rejected, so the claims stay editable), or `file`.
 */
export async function holderWithCertificate(w: InstitutionWorld, claims: Claims, opts: { lines?: string[]; pdfHolder?: string; file?: { bytes: Uint8Array; name: string; type: string } } = {}) {
  const holder = await w.browser();
  const file = opts.file ?? { bytes: await makePdf(opts.lines ?? [claims.institution_name, claims.title, claims.program_name], { holder: opts.pdfHolder }), name: 'c.pdf', type: 'application/pdf' };
  const created = await holder.client.certificate.create.mutate(certForm(claims, file));
  const cert = await waitFor(async () => {
    const r = await holder.client.certificate.byId.query({ id: created.id });
    return (r.verification_status !== 'pending' || r.verification_details?.state === 'awaiting_confirmation') && r;
  }, 60_000);
  return { holder, cert };
}

/** The holder asks `institution` to confirm the certificate (its wallet signs); the request as the institution's queue shows it. */
export async function ask(holder: Browser, certificateId: string, institution: Browser) {
  const prepared = await holder.client.certificate.requestConfirmation.mutate({ id: certificateId, issuer: institution.wallet.address, consent: true });
  await holder.client.certificate.submitConfirmationRequest.mutate({ signedTransaction: signed(prepared, holder) });
  return (await institution.client.issuer.requests.query()).find((r) => r.certificate_id === certificateId)!;
}

/**
 * What a crash between the send and the rows leaves of a prepared action (as start-up repair finds it):
 * its transaction, signed by `signer`, landed on chain; its rows are written by settleActions (the flow's
 * finish), not by the submit, so no check before the send ran.
 */
export async function landedUnfinished(w: InstitutionWorld, prepared: { action_id: string; transaction: string }, signer: Browser) {
  const signedTx = signed(prepared, signer);
  const db = w.server.services.db;
  const kind = (await db.selectFrom('wallet_action').select('kind').where('id', '=', prepared.action_id).executeTakeFirstOrThrow()).kind;
  await db.updateTable('wallet_action').set({ status: 'submitted', signed_transaction: signedTx }).where('id', '=', prepared.action_id).execute();
  await w.server.services.walletTx.send(Transaction.from(Buffer.from(signedTx, 'base64')), { kind });
}

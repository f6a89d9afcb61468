// What others do on the embedded chain, through its public JSON-RPC endpoint (/rpc), as an
// institution's own wallet would: revoke a certificate, issue a file to its rightful holder; and as the
// registry's admin (the operator key) does: suspend or approve an institution.
import { Keypair, PublicKey, Transaction, type TransactionInstruction } from '@solana/web3.js';
import { CERTIFICATES_PROGRAM_ID } from '../../../shared/program/ids';
import { issueCertificateIx, revokeCertificateIx, setIssuerStatusIx } from '../../../shared/program/instructions';

async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(`${url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

async function confirmed(url: string, signature: string) {
  for (let i = 0; i < 100; i++) {
    const r = await rpc<{ value: ({ err: unknown; confirmationStatus?: string } | null)[] }>(url, 'getSignatureStatuses', [[signature]]);
    const s = r.value[0];
    if (s?.err) throw new Error(`transaction failed: ${JSON.stringify(s.err)}`);
    if (s) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`transaction ${signature} not confirmed`);
}

export async function airdrop(url: string, to: PublicKey, lamports = 1_000_000_000) {
  await confirmed(url, await rpc<string>(url, 'requestAirdrop', [to.toBase58(), lamports]));
}

/** Signs with `payer` (fee payer and signer of the instructions) and sends through /rpc. */
export async function send(url: string, payer: Keypair, ...ixs: TransactionInstruction[]) {
  const { value } = await rpc<{ value: { blockhash: string } }>(url, 'getLatestBlockhash', []);
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: value.blockhash }).add(...ixs);
  tx.sign(payer);
  const signature = await rpc<string>(url, 'sendTransaction', [tx.serialize().toString('base64'), { encoding: 'base64' }]);
  await confirmed(url, signature);
  return signature;
}

const hashOf = (sha256: string) => Uint8Array.from(Buffer.from(sha256, 'hex'));

/** The institution revokes the certificate of `sha256` (reason 10: revoked by the issuer). */
export const revokeAsIssuer = (url: string, issuer: Keypair, sha256: string) =>
  send(url, issuer, revokeCertificateIx(CERTIFICATES_PROGRAM_ID, { hash: hashOf(sha256), authority: issuer.publicKey, reasonCode: 10 }));

/** The institution issues the file of `sha256` to `holder`, superseding an unconfirmed claim of it. */
export const issueTo = (url: string, issuer: Keypair, sha256: string, holder: PublicKey) =>
  send(url, issuer, issueCertificateIx(CERTIFICATES_PROGRAM_ID, { hash: hashOf(sha256), holder, authority: issuer.publicKey, payer: issuer.publicKey, expiresAt: 0n }));

/** The registry's admin (the server's operator key, `<data>/operator.json`) sets an institution's status (IssuerStatus). */
export const setIssuerStatusAsAdmin = (url: string, admin: Keypair, authority: PublicKey, status: number) =>
  send(url, admin, setIssuerStatusIx(CERTIFICATES_PROGRAM_ID, { authority, admin: admin.publicKey, status }));

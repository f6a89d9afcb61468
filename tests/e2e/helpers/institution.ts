// What an institution does through the product's own API (the portal's calls), signed in with its
// wallet: issue a certificate to a holder's wallet, with an expiry. For browser tests whose subject is
// the holder's or the verifier's page, not the portal.
import type { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { makeClient, signIn } from '../../../server/test/helpers';
import { toB64, walletSign } from '../../../server/test/mint-support/flow';

/** Signs in as `issuer` (an approved institution) and issues `pdf` to `holderWallet`; the new certificate's id. */
export async function issueAsInstitution(
  url: string,
  issuer: Keypair,
  fields: { title: string; program_name: string; issue_date: string; holder_wallet: string; expires_on?: string },
  pdf: Uint8Array,
): Promise<string> {
  const c = makeClient(url);
  const wallet = {
    address: issuer.publicKey.toBase58(),
    secretKey: issuer.secretKey,
    sign: (msg: string) => bs58.encode(nacl.sign.detached(new TextEncoder().encode(msg), issuer.secretKey)),
  };
  await signIn(c, wallet, { name: null });
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, v);
  form.set('certificate_file', new File([pdf as BlobPart], 'issued.pdf', { type: 'application/pdf' }));
  const prepared = await c.client.issuer.issue.mutate(form);
  const done = await c.client.issuer.submit.mutate({ signedTransaction: toB64(walletSign(prepared.transaction, issuer)) });
  return (done.result as { certificate_id: string }).certificate_id;
}

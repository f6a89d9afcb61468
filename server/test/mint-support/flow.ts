import { Keypair, Transaction } from '@solana/web3.js';
import { certForm, makeClient, makePdf, signIn, waitFor } from '../helpers';

export type Browser = ReturnType<typeof makeClient> & { mint: ReturnType<typeof makeClient>['client']['mint']; holder: Keypair; wallet: Awaited<ReturnType<typeof signIn>>['wallet']; name: string };

/** A signed-in holder (a real ed25519 wallet) named `name` (the test holder by default), with a cookie jar, and its mint client. */
export async function holderBrowser(server: { url: string }, name?: string): Promise<Browser> {
  const c = makeClient(server.url);
  const { wallet, user } = await signIn(c, undefined, name ? { name } : {});
  return Object.assign(c, { mint: c.client.mint, holder: Keypair.fromSecretKey(wallet.secretKey), wallet, name: user.full_name });
}

export const claims = (title = 'Certificate of Completion') => ({ title, institution_name: 'Harbor Institute', program_name: 'Marine Robotics', issue_date: '2025-03-03' });

/** Adds a certificate through the API and waits for the pipeline's verdict. */
export async function addCertificate(b: Browser, opts: { title?: string; matching?: boolean; wait?: 'verified' | 'rejected' | false; pdf?: Uint8Array } = {}) {
  const cl = claims(opts.title);
  const pdf = opts.pdf ?? (await makePdf(opts.matching === false ? ['Lorem ipsum dolor', 'sit amet'] : [cl.institution_name, cl.title, cl.program_name], { holder: b.name }));
  const cert = await b.client.certificate.create.mutate(certForm(cl, { bytes: pdf, name: 'certificate.pdf', type: 'application/pdf' }));
  const want = opts.wait ?? (opts.matching === false ? 'rejected' : 'verified');
  if (want) {
    await waitFor(async () => {
      const s = (await b.client.certificate.byId.query({ id: cert.id })).verification_status;
      if (s !== 'pending' && s !== want) throw new Error(`certificate ended ${s}, expected ${want}`);
      return s === want;
    }, 60_000);
  }
  return { cert, pdf };
}

/** What a wallet does: decode the server's transaction and add the holder's signature. */
export function walletSign(b64: string, holder: Keypair): Transaction {
  const tx = Transaction.from(Buffer.from(b64, 'base64'));
  tx.partialSign(holder);
  return tx;
}

export const toB64 = (tx: Transaction) => tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64');

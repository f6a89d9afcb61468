import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import Arweave from 'arweave';
import type { JWKInterface } from 'arweave/node/lib/wallet.js';
import { PermanentStoreError, type PermanentStore } from './types.js';

export interface ArweavePermanentStoreOptions {
  /** Gateway/node URL, e.g. https://arweave.net or http://127.0.0.1:1984 (arlocal). */
  url: string;
  /** Path to a JWK wallet file (ARWEAVE_WALLET_PATH), or the JWK itself. */
  walletPath?: string;
  jwk?: JWKInterface;
  /** Where readers fetch data; default `url`. Urls are `${gatewayUrl}/<txid>`. */
  gatewayUrl?: string;
  /** Call `GET /mine` after posting (arlocal only). Default: true for localhost/127.0.0.1 urls. */
  mine?: boolean;
  /** Added to every transaction. Default `{ 'App-Name': 'Attesta' }`. */
  appTags?: Record<string, string>;
  timeoutMs?: number;
}

const TXID_RE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Arweave: each put is one signed data transaction tagged with Content-Type, the app tags and the
 * content's SHA-256; data goes through the chunk uploader so multi-megabyte PDFs post completely.
 * Reads use getData(id, {decode: true}) because a gateway's GET /<txid> may truncate large files.
 */
export function createArweavePermanentStore(opts: ArweavePermanentStoreOptions): PermanentStore & { arweave: Arweave; address(): Promise<string> } {
  if (!opts.walletPath && !opts.jwk) {
    throw new PermanentStoreError('Arweave needs a wallet: set ARWEAVE_WALLET_PATH to a JWK key file.');
  }
  let parsed: URL;
  try {
    parsed = new URL(opts.url);
  } catch {
    throw new PermanentStoreError(`ARWEAVE_URL is not a valid URL: ${opts.url}`);
  }
  const protocol = parsed.protocol.replace(':', '');
  const port = parsed.port ? Number(parsed.port) : protocol === 'https' ? 443 : 80;
  const arweave = Arweave.init({ host: parsed.hostname, port, protocol, timeout: opts.timeoutMs ?? 60_000, logging: false });
  const gateway = (opts.gatewayUrl ?? opts.url).replace(/\/+$/, '');
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  const mine = opts.mine ?? local;
  const appTags = opts.appTags ?? { 'App-Name': 'Attesta' };

  let walletPromise: Promise<JWKInterface> | undefined;
  const wallet = () =>
    (walletPromise ??= opts.jwk
      ? Promise.resolve(opts.jwk)
      : readFile(opts.walletPath!, 'utf8')
          .then((s) => JSON.parse(s) as JWKInterface)
          .catch((err) => {
            walletPromise = undefined;
            throw new PermanentStoreError(`Could not read the Arweave wallet at ${opts.walletPath}: ${(err as Error).message}`, { cause: err });
          }));

  const reach = (err: unknown): never => {
    if (err instanceof PermanentStoreError) throw err;
    throw new PermanentStoreError(`Could not reach Arweave at ${opts.url}: ${(err as Error)?.message ?? err}. Check ARWEAVE_URL.`, { cause: err });
  };

  return {
    arweave,
    address: async () => arweave.wallets.jwkToAddress(await wallet()),
    async put(bytes, contentType, tags = {}) {
      const jwk = await wallet();
      try {
        const tx = await arweave.createTransaction({ data: bytes }, jwk);
        tx.addTag('Content-Type', contentType);
        for (const [k, v] of Object.entries(appTags)) tx.addTag(k, v);
        tx.addTag('Content-SHA256', createHash('sha256').update(bytes).digest('hex'));
        for (const [k, v] of Object.entries(tags)) tx.addTag(k, v);

        // Fail early with an actionable message rather than a bare 410 from the node.
        const owner = await arweave.wallets.jwkToAddress(jwk);
        const balance = BigInt(await arweave.wallets.getBalance(owner));
        if (balance < BigInt(tx.reward)) {
          throw new PermanentStoreError(
            `The Arweave wallet ${owner} has ${balance} winston but storing ${bytes.length} bytes costs ${tx.reward}. Fund the wallet${local ? ` (on arlocal: GET ${gateway}/mint/${owner}/1000000000000)` : ''}.`,
          );
        }

        await arweave.transactions.sign(tx, jwk);
        const uploader = await arweave.transactions.getUploader(tx);
        while (!uploader.isComplete) {
          await uploader.uploadChunk();
          // The SDK would wait 40 s and retry; callers (the job queue) retry instead, so fail now.
          if (uploader.lastResponseError) {
            throw new PermanentStoreError(`Arweave refused the upload (HTTP ${uploader.lastResponseStatus}: ${uploader.lastResponseError}).`);
          }
        }
        if (mine) {
          const r = await arweave.api.get('mine');
          if (r.status !== 200) throw new PermanentStoreError(`Mining on ${opts.url} failed (HTTP ${r.status}); is it arlocal?`);
        }
        return { id: tx.id, url: `${gateway}/${tx.id}` };
      } catch (err) {
        return reach(err);
      }
    },
    async get(id) {
      if (!TXID_RE.test(id)) return null;
      try {
        const head = await arweave.api.get<{ data_size?: string }>(`tx/${id}`);
        if (head.status === 404 || head.status === 410) return null;
        if (head.status !== 200) {
          throw new PermanentStoreError(`Arweave transaction ${id} is not available yet (HTTP ${head.status}).`);
        }
        const data = (await arweave.transactions.getData(id, { decode: true })) as Uint8Array;
        const size = Number(head.data?.data_size ?? data.length);
        if (data.length !== size) {
          throw new PermanentStoreError(`Arweave returned ${data.length} of ${size} bytes for ${id}.`);
        }
        return new Uint8Array(data);
      } catch (err) {
        return reach(err);
      }
    },
  };
}

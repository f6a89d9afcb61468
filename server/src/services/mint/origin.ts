import { DomainError } from '../../lib/errors';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { isLocalChain, listenOrigin } from '../auth/origin';

// The origin written into what a mint makes permanent: the NFT's metadata `uri`, the metadata JSON's
// links (external_url, "Verification URL", the PDF's URL) and the permanent copy's URL stored on the
// certificate. None of it can be changed after the mint, so it never comes from a request (a forged
// Host once put http://evil.example/permanent/… into an immutable NFT).

type MintOriginConfig = Pick<Config, 'publicOrigin' | 'chain' | 'host' | 'port'>;

/** Null when minting can name a permanent origin; else why not (a real cluster without ATTESTA_PUBLIC_ORIGIN). */
export function mintOriginProblem(config: MintOriginConfig): string | null {
  if (config.publicOrigin || isLocalChain(config)) return null;
  return (
    'Minting is disabled: ATTESTA_PUBLIC_ORIGIN is not set. An NFT names its certificate page and permanent copy forever, ' +
    'so on a real Solana cluster the server must know its public URL. Set ATTESTA_PUBLIC_ORIGIN (for example https://attesta.example) and restart the server.'
  );
}

/**
 * ATTESTA_PUBLIC_ORIGIN; on the embedded chain or a local validator without it, the server's own
 * listen origin (http://localhost:<PORT> for HOST 127.0.0.1). On a real cluster without it: refused.
 */
export function permanentOrigin(config: MintOriginConfig, req?: FastifyRequest): string {
  if (config.publicOrigin) return config.publicOrigin;
  const problem = mintOriginProblem(config);
  if (problem) throw new DomainError('PRECONDITION_FAILED', problem);
  return listenOrigin(config, req);
}

/** The start-up warning (reconcileMints, once per start) when minting will be refused for want of ATTESTA_PUBLIC_ORIGIN. */
export function warnMintOrigin(config: MintOriginConfig, warn: (message: string) => void = console.warn): void {
  const problem = mintOriginProblem(config);
  if (!problem) return;
  warn(`Warning: ${problem} Until then sign-in also works only at this server's local address.`);
}

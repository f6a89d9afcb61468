import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { CertificateStatus, fromHex } from '../../../shared/program/codec';
import { readPermanent } from '../services/permanent';
import type { Services } from '../services';

export interface PermanentRoutesOptions {
  /** The local permanent store's directory (`${dataDir}/permanent`). */
  dir: string;
  /**
   * Why an object is no longer served (its certificate was revoked on chain), or null. A certificate
   * PDF's object id is its SHA-256, the same as the record's hash.
   */
  withdrawn?: (id: string) => Promise<string | null>;
}

// Objects are content-addressed (id = SHA-256 of the bytes): a URL can never change content. It can
// stop being served (revocation), so caches keep it for an hour, not forever.
const CACHE = 'public, max-age=3600';

/**
 * GET/HEAD /permanent/:id — the local permanent store, read-only: the minted certificates' PDFs,
 * NFT metadata JSON and badge pictures (PNG), each with the content type it was stored with.
 * Public (wallets and explorers fetch the metadata and the picture cross-origin).
 */
export const permanentRoutes: FastifyPluginAsync<PermanentRoutesOptions> = async (app, opts) => {
  app.get<{ Params: { id: string } }>('/permanent/:id', async (req, reply) => {
    const id = req.params.id.toLowerCase();
    const obj = await readPermanent(opts.dir, id); // null for anything that is not 64 hex
    if (!obj) return reply.code(404).header('cache-control', 'no-store').send({ error: 'Not found' });
    const why = opts.withdrawn ? await opts.withdrawn(id) : null;
    if (why) return reply.code(410).header('cache-control', 'no-store').send({ error: why });
    const etag = `"${id}"`;
    reply
      .header('content-type', obj.contentType)
      .header('cache-control', CACHE)
      .header('etag', etag)
      .header('access-control-allow-origin', '*')
      .header('x-content-type-options', 'nosniff')
      .header('x-content-sha256', id);
    if (obj.contentType === 'application/pdf') reply.header('content-disposition', `inline; filename="${id.slice(0, 16)}.pdf"`);
    if (req.headers['if-none-match']?.split(',').some((t) => t.trim() === etag)) return reply.code(304).send();
    return reply.send(Buffer.from(obj.bytes.buffer, obj.bytes.byteOffset, obj.bytes.byteLength));
  });
};

/** Registers {@link permanentRoutes} on the server's local store directory; revoked certificates' files are withdrawn. */
export function registerPermanentRoutes(app: FastifyInstance, svc: Pick<Services, 'config' | 'chain'>) {
  const withdrawn = async (id: string) => {
    const record = await svc.chain.readCertificate(fromHex(id));
    return record?.status === CertificateStatus.Revoked
      ? 'This certificate was revoked on chain; its file is no longer served. Check its record for the reason.'
      : null;
  };
  return app.register(permanentRoutes, { dir: path.join(svc.config.dataDir, 'permanent'), withdrawn });
}

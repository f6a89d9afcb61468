import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { sessionFromRequest } from '../context';
import { findCertificate } from '../db/certificates';
import { contentDisposition } from '../services/files/index.js';
import { authenticateApiKey, looksLikeApiKey } from '../services/api-keys';

/**
 * Plain HTTP downloads (browsers, <embed>, curl).
 * Certificates: the owner (by session cookie) always; the institution the holder asked to confirm it
 * while the request is open (the holder consented to share the file with it), by session cookie or by
 * its API key (the REST request list links here); anyone else only when the certificate is verified —
 * the public view links to it then, and a verifier needs the file.
 * Photos: public (the profile page says the photo is shown with shared certificates).
 */
export function registerFileRoutes(app: FastifyInstance, svc: Services) {
  app.get<{ Params: { id: string } }>('/files/certificates/:id', async (req, reply) => {
    // No id holds a NUL, and PostgreSQL cannot even compare one (it was a 500 there).
    if (req.params.id.includes('\0')) return reply.code(404).send({ error: 'Certificate not found' });
    const cert = await findCertificate(svc.db, req.params.id);
    const session = cert ? await sessionFromRequest(svc, req) : null;
    const asker = session?.user ?? (cert ? await apiKeyUser(svc, req.headers.authorization) : null);
    const allowed = cert && (cert.verification_status === 'verified' || session?.user.id === cert.user_id || (asker && (await askedInstitution(svc, cert.id, asker.wallet_address))));
    if (!cert || !allowed) return reply.code(404).send({ error: 'Certificate not found' });
    const bytes = await svc.blobs.get(cert.file_key);
    if (!bytes) return reply.code(404).send({ error: 'File not found' });
    const inline = (req.query as Record<string, string>)?.download !== '1';
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', cert.file_name))
      .header('x-content-sha256', cert.sha256)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(bytes));
  });

  app.get<{ Params: { userId: string } }>('/files/photos/:userId', async (req, reply) => {
    if (req.params.userId.includes('\0')) return reply.code(404).send({ error: 'Photo not found' });
    const user = await svc.db.selectFrom('user').select(['profile_image_key']).where('id', '=', req.params.userId).executeTakeFirst();
    const bytes = user?.profile_image_key ? await svc.blobs.get(user.profile_image_key) : null;
    if (!bytes) return reply.code(404).send({ error: 'Photo not found' });
    const ext = user!.profile_image_key!.split('.').pop();
    const mime = ext === 'png' ? 'image/png' : ext === 'gif' ? 'image/gif' : ext === 'webp' ? 'image/webp' : 'image/jpeg';
    return reply.header('content-type', mime).header('x-content-type-options', 'nosniff').header('cache-control', 'public, max-age=300').send(Buffer.from(bytes));
  });
}

/** True when `wallet` is the institution an open confirmation request of the certificate asks. */
async function askedInstitution(svc: Services, certificateId: string, wallet: string): Promise<boolean> {
  const r = await svc.db.selectFrom('confirmation_request').select('id').where('certificate_id', '=', certificateId).where('issuer_authority', '=', wallet).where('status', '=', 'open').executeTakeFirst();
  return !!r;
}

/** The user of `Authorization: Bearer <API key>`, if it is a live key (only the asked-institution check uses it). */
async function apiKeyUser(svc: Services, authorization: string | undefined) {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m || !looksLikeApiKey(m[1])) return null;
  const r = await authenticateApiKey(svc.db, m[1]);
  return r.ok ? r.user : null;
}

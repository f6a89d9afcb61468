import type { FastifyInstance } from 'fastify';
import { sha256Hex } from '../../../shared/schemas/common';
import { requestOrigin } from '../context';
import type { Services } from '../services';
import { verdictJson } from '../services/certificates/verdict';

/**
 * GET /api/v1/verify/hash/:sha256 — the public verdict for a hash as plain JSON (curl, CLI,
 * integrations), the same object as tRPC `public.verifyByHash` without the tRPC envelope. It is
 * also the hot path: it skips the tRPC adapter's Request/Response conversion.
 */
export function registerVerifyRoutes(app: FastifyInstance, svc: Services) {
  app.get<{ Params: { sha256: string } }>('/api/v1/verify/hash/:sha256', async (req, reply) => {
    const parsed = sha256Hex.safeParse(req.params.sha256);
    if (!parsed.success) return reply.code(400).send({ error: { code: 'bad_request', message: parsed.error.issues[0].message } });
    return reply.type('application/json').send(await verdictJson(svc, { sha256: parsed.data, origin: requestOrigin(svc, req).origin }));
  });
}

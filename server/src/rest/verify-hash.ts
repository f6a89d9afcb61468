import type { FastifyInstance } from 'fastify';
import { sha256Hex } from '../../../shared/schemas/common';
import { requestOrigin } from '../context';
import type { Services } from '../services';

/**
 * GET /api/v1/verify/hash/:sha256 — the public verdict for a hash as plain JSON (curl, CLI,
 * integrations), the same object as tRPC `public.verifyByHash` without the tRPC envelope. It is
 * also the hot path: registered on the root, outside the /api plugin's per-key limits and parsers,
 * and it skips the tRPC adapter's Request/Response conversion. Documented in ENDPOINTS (./endpoints.ts).
 */
export function registerVerifyHashRoute(app: FastifyInstance, svc: Services) {
  app.get<{ Params: { sha256: string } }>('/api/v1/verify/hash/:sha256', async (req, reply) => {
    const parsed = sha256Hex.safeParse(req.params.sha256);
    if (!parsed.success) return reply.code(400).send({ error: { code: 'bad_request', message: parsed.error.issues[0].message } });
    return reply.type('application/json').send(await svc.verdicts.verdictJson({ sha256: parsed.data, origin: requestOrigin(svc, req).origin }));
  });
}

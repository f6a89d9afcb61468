// A request's context is built for every tRPC call and REST request with the services spread last
// (context.ts: properties written after a spread of the services each cost V8 a map transition). The
// order must not change what a procedure sees: every service as composed, the request's own fields,
// and the defaults of createContextInner where a caller gives none.
import fs from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from '../src/app';
import { contextFactory, createContextInner } from '../src/context';
import { startTestServer, tmpDataDir } from './helpers';

let server: Server;
let dir: string;
beforeAll(async () => {
  dir = tmpDataDir();
  server = await startTestServer(dir);
}, 60_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a request context', () => {
  it('holds every service as composed, beside the request fields', async () => {
    const req = { headers: { host: 'example.test' }, protocol: 'http', cookies: {}, socket: {} } as unknown as FastifyRequest;
    const res = {} as FastifyReply;
    const ctx = await contextFactory(server.services)({ req, res, info: {} } as never);
    for (const [key, service] of Object.entries(server.services)) expect(ctx[key as keyof typeof ctx], key).toBe(service);
    expect(ctx.session).toBeNull();
    expect(ctx.req).toBe(req);
    expect(ctx.res).toBe(res);
    expect(typeof ctx.origin).toBe('string');
  });

  it('createContextInner keeps what it is given and fills in the rest', async () => {
    const session = { user: { id: 'u_1' }, tokenHash: 't' } as never;
    const given = await createContextInner({ ...server.services, session, origin: 'https://attesta.example', host: 'attesta.example', secure: true });
    expect(given).toMatchObject({ session, origin: 'https://attesta.example', host: 'attesta.example', secure: true });
    expect(given.db).toBe(server.services.db);

    const config = { ...server.services.config, publicOrigin: 'https://public.example' };
    const defaults = await createContextInner({ ...server.services, config });
    expect(defaults).toMatchObject({ session: null, origin: 'https://public.example', host: 'localhost:3000', secure: false });
    // A service given in place of the composed one (tests do) is the one the context holds.
    expect(defaults.config).toBe(config);
  });
});

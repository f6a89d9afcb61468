/**
 * The real server (helpers.startTestServer) with the REST API. Until the lead wires
 * registerRestApi/apiKeys/the api_key migration into app.ts, router.ts and db/index.ts, this
 * composes them around the same services the way app.ts will; once wired, it uses the server as is.
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { sql } from 'kysely';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { contextFactory } from '../../src/context';
import * as apiKeyMigration from '../../src/db/migrations/2026-11-22T1000-api-keys';
import { registerVerifyRoutes } from '../../src/http/verify';
import { registerRestApi } from '../../src/rest';
import { appRouter } from '../../src/router';
import { apiKeysRouter } from '../../src/routers/api-keys';
import type { Services } from '../../src/services';
import { router } from '../../src/trpc';
import { makeClient, newWallet, signIn, startTestServer, tmpDataDir } from '../helpers';

export const restTestRouter = router({ ...appRouter._def.record, apiKeys: apiKeysRouter });
export type RestTestRouter = typeof restTestRouter;

export interface RestTestServer {
  url: string;
  services: Services;
  composed: boolean;
  close(): Promise<void>;
}

export async function startRestTestServer(env: Record<string, string> = {}): Promise<RestTestServer> {
  const dir = tmpDataDir();
  const server = await startTestServer(dir, env);
  const { db } = server.services;
  const has = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'api_key'`.execute(db);
  if (has.rows.length === 0) await apiKeyMigration.up(db);
  const cleanup = async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  if (server.app.hasRoute({ method: 'GET', url: '/api/openapi.json' })) return { url: server.url, services: server.services, composed: true, close: cleanup };

  const app = Fastify({ logger: false });
  await app.register(fastifyCookie);
  await app.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions: { router: restTestRouter, createContext: contextFactory(server.services) } });
  registerVerifyRoutes(app, server.services);
  await registerRestApi(app, server.services); // API_RATE_LIMIT_PER_MIN comes from env via config.env, as in app.ts
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    url,
    services: server.services,
    composed: false,
    async close() {
      await app.close();
      await cleanup();
    },
  };
}

/** A signed-in browser (cookie session) with a client that also has apiKeys.*. */
export async function restUser(url: string) {
  const c = makeClient(url);
  const { wallet, user } = await signIn(c, newWallet());
  const keys = createTRPCClient<RestTestRouter>({ links: [httpBatchLink({ url: `${url}/trpc`, fetch: c.fetch as typeof fetch })] }).apiKeys;
  return { ...c, wallet, user, keys };
}

type Json = Record<string, any>;

/**
 * Validates responses against the served OpenAPI document: the schema of (path, method, status),
 * with the documented content type and headers. Records what was checked for a coverage assertion.
 */
export class OpenApiChecker {
  readonly seen = new Set<string>();
  private ajv = new Ajv2020({ allErrors: true, strict: true });
  private cache = new Map<string, (v: unknown) => boolean>();
  constructor(readonly doc: Json) {}

  private validator(path: string, method: string, status: number) {
    const key = `${method} ${path} ${status}`;
    let v = this.cache.get(key);
    if (!v) {
      const op = this.doc.paths?.[path]?.[method.toLowerCase()];
      expect(op, `${method} ${path} is documented`).toBeTruthy();
      const resp = op.responses?.[String(status)];
      expect(resp, `${key} is documented`).toBeTruthy();
      let schema = resp.content?.['application/json']?.schema;
      expect(schema, `${key} has an application/json schema`).toBeTruthy();
      if (schema.$ref) schema = this.doc.components.schemas[schema.$ref.split('/').pop()];
      v = this.ajv.compile(schema);
      this.cache.set(key, v);
    }
    return v as ((d: unknown) => boolean) & { errors?: unknown };
  }

  /** Asserts status, JSON content type and body shape; returns the body. */
  async check(res: Response, path: string, method: string, status: number): Promise<any> {
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text.slice(0, 300)}`).toBe(status);
    expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
    const body = JSON.parse(text);
    const validate = this.validator(path, method, status);
    const valid = validate(body);
    expect(valid, `${method} ${path} ${status} matches the OpenAPI schema: ${JSON.stringify(validate.errors)} body=${text.slice(0, 500)}`).toBe(true);
    if (status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    this.seen.add(`${method} ${path} ${status}`);
    return body;
  }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

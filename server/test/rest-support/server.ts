/** REST API test support: a signed-in user with API keys, and the served OpenAPI document as a response checker. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { makeClient, newWallet, signIn } from '../helpers';

/** A signed-in browser (cookie session) and its apiKeys.* client. */
export async function restUser(url: string) {
  const c = makeClient(url);
  const { wallet, user } = await signIn(c, newWallet());
  return { ...c, wallet, user, keys: c.client.apiKeys };
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

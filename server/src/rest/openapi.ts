import { z } from 'zod';
import { restError } from '../../../shared/schemas/rest';
import { AUTH_HELP, type Endpoint, type Tag } from './endpoints';

type Json = Record<string, unknown>;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema; requests as accepted, responses as sent. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  return rest;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request; `fields` names each invalid field with its message',
  401: 'Missing, invalid or revoked API key / token, or a failed wallet signature',
  403: 'Not allowed for this wallet',
  404: 'Not found (another user\'s data is reported the same way)',
  409: 'Conflicts with the current state (e.g. file already added, already minted)',
  412: 'A precondition is not met (e.g. not anchored on chain yet)',
  413: 'The request body is too large (files: max 10 MB; JSON: max 64 KB)',
  415: 'Unsupported Content-Type or file type',
  429: 'Rate limit exceeded; wait `Retry-After` seconds',
  500: 'Unexpected server error',
};

const TAGS: { name: Tag; description: string }[] = [
  { name: 'Authentication', description: 'Connect a wallet by signature for a bearer token, or use an API key from the profile page.' },
  { name: 'Profile', description: 'Your name (which verification looks for in your certificates) and e-mail.' },
  { name: 'Certificates', description: 'Add and read your certificates.' },
  { name: 'Verification', description: 'Verification status, logs and the public verdict by hash.' },
  { name: 'NFT Minting', description: 'Mint verified certificates as soulbound NFTs, signed by the holder wallet.' },
  { name: 'Institutions', description: 'For institutions: issue, confirm, decline and revoke certificates, signed by the institution wallet; list what it issued and its confirmation requests.' },
];

function parameters(schema: z.ZodObject | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const s = jsonSchema(field as z.ZodType, 'input');
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === 'path' || !(field as z.ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

export function buildOpenApiDocument(endpoints: Endpoint[], opts: { rateLimitPerMin: number }) {
  const paths: Record<string, Record<string, Json>> = {};
  const errorRef = { $ref: '#/components/schemas/Error' };
  for (const ep of endpoints) {
    const responses: Record<string, Json> = {};
    for (const [status, r] of Object.entries(ep.responses)) {
      responses[status] = {
        description: r.description,
        ...(ep.auth ? { headers: { 'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' }, 'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' } } } : {}),
        content: { 'application/json': { schema: jsonSchema(r.schema, 'output') } },
      };
    }
    // Any POST body goes through the content-type parsers: unknown types are 415, oversized ones 413.
    const errors = [...new Set([...ep.errors, ...(ep.method === 'POST' ? [413, 415] : []), 500])].sort((a, b) => a - b);
    for (const status of errors) {
      responses[String(status)] = {
        description: STATUS_TEXT[status] ?? 'Error',
        ...(status === 429 ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } : {}),
        content: { 'application/json': { schema: errorRef } },
      };
    }
    const op: Json = {
      operationId: ep.operationId,
      tags: [ep.tag],
      summary: ep.summary,
      description: ep.description,
      security: ep.auth ? [{ bearerAuth: [] }] : [],
      parameters: [...parameters(ep.params, 'path'), ...parameters(ep.query, 'query')],
      ...(ep.body
        ? { requestBody: { required: ep.body.required, content: { [ep.body.contentType]: { schema: jsonSchema(ep.body.schema, 'input') } } } }
        : {}),
      responses,
    };
    (paths[ep.path] ??= {})[ep.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Attesta API',
      version: '1.0.0',
      description: [
        'Certificates anchored on Solana: add, verify, mint and check them.',
        `Authentication: ${AUTH_HELP} Or connect a wallet: POST /api/v1/auth/nonce, sign the message, POST /api/v1/auth/connect.`,
        `Rate limit: ${opts.rateLimitPerMin} requests per minute per API key or token (per IP without one); over it the answer is 429 with Retry-After.`,
        'Errors: `{"error": {"code", "message", "fields"?}}` with the matching HTTP status.',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    tags: TAGS,
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (atst_…) from the profile page, or a connect token from /api/v1/auth/connect.' },
      },
      schemas: { Error: jsonSchema(restError, 'output') },
      headers: {
        'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
        'X-RateLimit-Limit': { description: 'Requests allowed per minute', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
      },
    },
  };
}

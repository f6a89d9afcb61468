// Reads the server's OpenAPI document (GET /api/openapi.json) into the page's endpoint list, so the
// /api page shows the API as served. Until the server publishes it, the page uses the seed's table.
import {
  API_ENDPOINTS,
  type ApiCategory,
  type ApiEndpoint,
  type ApiField,
  type HttpMethod,
} from '../../../../shared/content/api-endpoints';

export const OPENAPI_URL = '/api/openapi.json';

type Schema = {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  $ref?: string;
};
type Operation = {
  summary?: string;
  description?: string;
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
export interface OpenApiDocument {
  paths?: Record<string, Partial<Record<Lowercase<HttpMethod>, Operation>>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function categoryOf(path: string): ApiCategory {
  if (/\/auth(\/|$)/.test(path)) return 'auth';
  if (/\/(verify|verification|public)(\/|$)/.test(path)) return 'verification';
  if (/\/mint(\/|$)/.test(path)) return 'nft';
  return 'certificates';
}

function fieldsOf(doc: OpenApiDocument, schema: Schema | undefined): ApiField[] {
  const resolved = schema?.$ref ? doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''] : schema;
  if (!resolved?.properties) return [];
  return Object.entries(resolved.properties).map(([name, s]) => ({
    name,
    type: s.type === 'array' ? 'array' : s.format === 'binary' ? 'file' : (s.type ?? 'object'),
    optional: !resolved.required?.includes(name),
    description: s.description,
  }));
}

function firstSchema(content?: Record<string, { schema?: Schema }>) {
  return content ? Object.values(content)[0]?.schema : undefined;
}

/** The endpoints under /api/v1 of an OpenAPI 3 document; an empty list when it has none. */
export function endpointsFromOpenApi(doc: OpenApiDocument): ApiEndpoint[] {
  const out: ApiEndpoint[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const method of METHODS) {
      const op = item[method.toLowerCase() as Lowercase<HttpMethod>];
      if (!op) continue;
      const ok = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith('2'))?.[1];
      out.push({
        id: op.operationId ?? `${method} ${path}`,
        method,
        path,
        category: categoryOf(path),
        title: op.summary ?? `${method} ${path}`,
        description: op.description ?? '',
        body: fieldsOf(doc, firstSchema(op.requestBody?.content)),
        response: fieldsOf(doc, firstSchema(ok?.content)),
      });
    }
  }
  return out;
}

/** The served document's endpoints, or the seed's documented table when it is unavailable. */
export async function loadApiEndpoints(signal?: AbortSignal): Promise<ApiEndpoint[]> {
  try {
    const res = await fetch(OPENAPI_URL, { signal, headers: { accept: 'application/json' } });
    if (!res.ok || !res.headers.get('content-type')?.includes('json')) return API_ENDPOINTS;
    const endpoints = endpointsFromOpenApi((await res.json()) as OpenApiDocument);
    return endpoints.length > 0 ? endpoints : API_ENDPOINTS;
  } catch {
    return API_ENDPOINTS;
  }
}

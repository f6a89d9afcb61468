// Reads the server's OpenAPI document (GET /api/openapi.json) into the page's groups and endpoints, so
// the /api page shows the API as served: one group per tag the document declares (in its order, with
// its description), each operation under its first tag. Until the server publishes it, the page uses
// the seed's table and categories.
import {
  API_CATEGORIES,
  API_ENDPOINTS,
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
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
export interface OpenApiDocument {
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Partial<Record<Lowercase<HttpMethod>, Operation>>>;
  components?: { schemas?: Record<string, Schema> };
}

/** A tab of the /api page: `id` is what the endpoints' `category` holds. */
export interface ApiGroup {
  id: string;
  label: string;
  description?: string;
}
export interface ApiCatalog {
  groups: ApiGroup[];
  endpoints: ApiEndpoint[];
}

/** The seed's table, until (or unless) the server serves its document. */
export const SEED_CATALOG: ApiCatalog = {
  groups: API_CATEGORIES.filter((c) => c.id !== 'all').map((c) => ({ id: c.id, label: c.label })),
  endpoints: API_ENDPOINTS,
};

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** An operation the document left without a tag: the seed's category label its path suggests. */
function untaggedGroup(path: string): string {
  const id = /\/auth(\/|$)/.test(path) ? 'auth' : /\/(verify|verification|public)(\/|$)/.test(path) ? 'verification' : /\/mint(\/|$)/.test(path) ? 'nft' : 'certificates';
  return API_CATEGORIES.find((c) => c.id === id)!.label;
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

/**
 * The endpoints under /api/v1 of an OpenAPI 3 document, grouped by tag: the document's declared tags
 * first, in its order, then any other tag an operation names; groups without an endpoint are left out.
 */
export function catalogFromOpenApi(doc: OpenApiDocument): ApiCatalog {
  const endpoints: ApiEndpoint[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const method of METHODS) {
      const op = item[method.toLowerCase() as Lowercase<HttpMethod>];
      if (!op) continue;
      const ok = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith('2'))?.[1];
      endpoints.push({
        id: op.operationId ?? `${method} ${path}`,
        method,
        path,
        category: op.tags?.find((t) => t.trim()) ?? untaggedGroup(path),
        title: op.summary ?? `${method} ${path}`,
        description: op.description ?? '',
        body: fieldsOf(doc, firstSchema(op.requestBody?.content)),
        response: fieldsOf(doc, firstSchema(ok?.content)),
      });
    }
  }
  const declared = (doc.tags ?? []).filter((t) => typeof t?.name === 'string');
  const names = [...new Set([...declared.map((t) => t.name), ...endpoints.map((e) => e.category)])].filter((n) => endpoints.some((e) => e.category === n));
  const groups = names.map((name) => ({ id: name, label: name, description: declared.find((t) => t.name === name)?.description }));
  return { groups, endpoints };
}

/** The served document's groups and endpoints, or the seed's table when it is unavailable. */
export async function loadApiCatalog(signal?: AbortSignal): Promise<ApiCatalog> {
  try {
    const res = await fetch(OPENAPI_URL, { signal, headers: { accept: 'application/json' } });
    if (!res.ok || !res.headers.get('content-type')?.includes('json')) return SEED_CATALOG;
    const catalog = catalogFromOpenApi((await res.json()) as OpenApiDocument);
    return catalog.endpoints.length > 0 ? catalog : SEED_CATALOG;
  } catch {
    return SEED_CATALOG;
  }
}

import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Copy, KeyRound, Lock, SearchX, Wrench } from 'lucide-react';
import { toast } from '../../lib/toast';
import {
  API_AUTH_HEADER_EXAMPLE,
  API_AUTH_NOTE,
  filterApiEndpoints,
  type ApiEndpoint,
  type ApiField,
} from '../../../../shared/content/api-endpoints';
import { PageHeading } from '../../components/layout/PageHeading';
import { SearchField } from '../../components/layout/SearchField';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useMediaQuery } from '../../hooks/use-media-query';
import { copyToClipboard } from '../../lib/clipboard';
import { cn } from '../../lib/utils';
import { loadApiCatalog, OPENAPI_URL, SEED_CATALOG } from './openapi';

/** 'all', or the id of one of the catalog's groups (the OpenAPI document's tags). */
type CategoryFilter = string;

/** Seed §2/§9: the copy toast lasts 2 s; the page switches to its mobile layout at 640 px. */
export const COPY_TOAST_DURATION_MS = 2000;
const MOBILE_QUERY = '(max-width: 640px)';

const METHOD_STYLES: Record<string, string> = {
  GET: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
  POST: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  PUT: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200',
  PATCH: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200',
  DELETE: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
};

async function copyPath(path: string) {
  try {
    await copyToClipboard(path);
    toast.success('Copied to clipboard', { duration: COPY_TOAST_DURATION_MS });
  } catch {
    toast.error('Copy Failed', { description: 'Failed to copy the link to clipboard.' });
  }
}

function FieldList({ title, fields }: { title: string; fields: ApiField[] }) {
  return (
    <div>
      <h4 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</h4>
      {fields.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">None</p>
      ) : (
        <ul className="mt-2 space-y-1.5">
          {fields.map((f) => (
            <li key={f.name} className="flex flex-wrap items-baseline gap-x-2 text-sm">
              <code className="font-mono font-medium">
                {f.name}
                {f.optional && '?'}
              </code>
              <span className="font-mono text-xs text-muted-foreground">{f.type}</span>
              {f.description && <span className="text-muted-foreground">— {f.description}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function EndpointCard({ endpoint }: { endpoint: ApiEndpoint }) {
  return (
    <Card className="gap-4 py-5" data-testid="api-endpoint">
      <CardHeader className="px-5">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <Badge className={cn('font-mono', METHOD_STYLES[endpoint.method])}>{endpoint.method}</Badge>
          <button
            type="button"
            onClick={() => void copyPath(endpoint.path)}
            className="group inline-flex max-w-full min-w-0 items-center gap-1.5 rounded-md px-1 font-mono text-sm font-medium break-all hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            aria-label={`Copy ${endpoint.path}`}
            title="Click to copy"
          >
            <span className="text-left">{endpoint.path}</span>
            <Copy className="size-3.5 shrink-0 text-muted-foreground opacity-60 group-hover:opacity-100" aria-hidden="true" />
          </button>
        </div>
        <CardTitle className="mt-2 text-base">{endpoint.title}</CardTitle>
        <CardDescription>{endpoint.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 px-5 sm:grid-cols-2">
        <FieldList title="Request body" fields={endpoint.body} />
        <FieldList title="Response" fields={endpoint.response} />
      </CardContent>
    </Card>
  );
}

export default function ApiDocsPage() {
  const [query, setQuery] = useState('');
  const [chosen, setCategory] = useState<CategoryFilter>('all');
  const isMobile = useMediaQuery(MOBILE_QUERY);
  // The served OpenAPI document when there is one, grouped by its tags; the seed's table meanwhile.
  const { data: catalog = SEED_CATALOG } = useQuery({
    queryKey: ['api-docs', OPENAPI_URL],
    queryFn: ({ signal }) => loadApiCatalog(signal),
    staleTime: Infinity,
    retry: false,
  });
  const tabs = useMemo(() => [{ id: 'all', label: 'All', description: undefined as string | undefined }, ...catalog.groups], [catalog]);
  // A group of the seed's table chosen before the document arrived may not exist in it.
  const category = tabs.some((t) => t.id === chosen) ? chosen : 'all';
  const group = tabs.find((t) => t.id === category);
  const endpoints = useMemo(() => filterApiEndpoints(query, category, catalog.endpoints), [query, category, catalog]);

  const clearFilters = () => {
    setQuery('');
    setCategory('all');
  };

  const list =
    endpoints.length === 0 ? (
      <div className="rounded-xl border border-dashed p-10 text-center" role="status">
        <SearchX className="mx-auto size-8 text-muted-foreground" aria-hidden="true" />
        <p className="mt-3 font-medium">No endpoints found</p>
        <p className="mt-1 text-sm text-muted-foreground">Try a different search or category.</p>
        <Button variant="outline" className="mt-4" onClick={clearFilters}>
          Clear filters
        </Button>
      </div>
    ) : (
      <div className="grid gap-4">
        {group?.description && <p className="text-sm text-muted-foreground" data-testid="api-group-description">{group.description}</p>}
        {endpoints.map((e) => (
          <EndpointCard key={e.id} endpoint={e} />
        ))}
      </div>
    );

  return (
    <>
      <PageHeading
        eyebrow="API"
        title="API Documentation"
        description="Verify certificates and manage them from your own systems with the Attesta REST API."
      />
      <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6 lg:px-8">
        <div
          role="note"
          className="flex gap-3 rounded-lg border border-warning/40 bg-amber-50 p-4 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50"
        >
          <Wrench className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden="true" />
          <p>
            <strong className="font-semibold">This project is in active development.</strong> Our APIs will be
            released and open-sourced gradually. Endpoints and payloads may change.
          </p>
        </div>

        <Card className="mt-6 gap-3 py-5">
          <CardContent className="flex flex-col gap-4 px-5 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex gap-3">
              <Lock className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <div className="space-y-1 text-sm">
                <p className="font-medium">Authentication</p>
                <p className="text-muted-foreground">{API_AUTH_NOTE}</p>
                <code className="inline-block rounded bg-muted px-2 py-1 font-mono text-xs break-all">
                  {API_AUTH_HEADER_EXAMPLE}
                </code>
              </div>
            </div>
            <Button asChild className="shrink-0">
              <Link to="/profile">
                <KeyRound aria-hidden="true" /> Get API Key
              </Link>
            </Button>
          </CardContent>
        </Card>

        <div className="mt-8">
          <SearchField value={query} onChange={setQuery} placeholder="Search endpoints..." label="Search endpoints" />
        </div>

        {isMobile ? (
          <div className="mt-4 grid gap-4" data-layout="mobile">
            <Select value={category} onValueChange={(v) => setCategory(v as CategoryFilter)}>
              <SelectTrigger className="w-full" aria-label="Category">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {tabs.map((c) => (
                  <SelectItem key={c.id} value={c.id}>
                    {c.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {list}
          </div>
        ) : (
          <Tabs value={category} onValueChange={(v) => setCategory(v as CategoryFilter)} className="mt-4 gap-4">
            <TabsList className="w-full sm:w-fit">
              {tabs.map((c) => (
                <TabsTrigger key={c.id} value={c.id} className="px-3">
                  {c.label}
                </TabsTrigger>
              ))}
            </TabsList>
            {tabs.map((c) => (
              <TabsContent key={c.id} value={c.id}>
                {c.id === category && list}
              </TabsContent>
            ))}
          </Tabs>
        )}
      </div>
    </>
  );
}

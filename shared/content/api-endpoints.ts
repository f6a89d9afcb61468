// The documented REST API (SEED-SPEC §7 "Documented API"). The /api page lists these until the server
// serves its OpenAPI document at /api/openapi.json. Plain data, shared with the server.

export type ApiCategory = 'auth' | 'certificates' | 'verification' | 'nft';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiField {
  name: string;
  type: string;
  optional?: boolean;
  description?: string;
}

export interface ApiEndpoint {
  id: string;
  method: HttpMethod;
  path: string;
  /** The group the /api page lists it under: this table's categories, or the OpenAPI document's tag. */
  category: ApiCategory | (string & {});
  title: string;
  description: string;
  body: ApiField[];
  response: ApiField[];
}

export const API_CATEGORIES: { id: 'all' | ApiCategory; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'auth', label: 'Authentication' },
  { id: 'certificates', label: 'Certificates' },
  { id: 'verification', label: 'Verification' },
  { id: 'nft', label: 'NFT Minting' },
];

export const API_BASE_PATH = '/api/v1';
// The seed's sentence, with the exceptions the real API has: a wallet that has no key yet signs in, and
// anyone may check a hash.
export const API_AUTH_NOTE =
  'All endpoints require an API key in the Authorization header, except signing in (auth/nonce, auth/connect) and verifying a file hash (verify/hash), which are public.';
export const API_AUTH_HEADER_EXAMPLE = 'Authorization: Bearer YOUR_API_KEY';

export const API_ENDPOINTS: ApiEndpoint[] = [
  {
    id: 'auth-connect',
    method: 'POST',
    path: '/api/v1/auth/connect',
    category: 'auth',
    title: 'Connect wallet',
    description: 'Authenticate with a wallet: sign the message with the wallet and send the signature.',
    body: [
      { name: 'wallet_address', type: 'string', description: 'Base58 Solana address' },
      { name: 'signature', type: 'string', description: 'Signature of the message' },
      { name: 'message', type: 'string', description: 'The signed message' },
    ],
    response: [
      { name: 'token', type: 'string' },
      { name: 'user', type: '{ id, wallet_address, full_name }' },
    ],
  },
  {
    id: 'auth-disconnect',
    method: 'POST',
    path: '/api/v1/auth/disconnect',
    category: 'auth',
    title: 'Disconnect wallet',
    description: 'End the current session.',
    body: [],
    response: [{ name: 'success', type: 'boolean' }],
  },
  {
    id: 'certificates-list',
    method: 'GET',
    path: '/api/v1/certificates',
    category: 'certificates',
    title: 'List certificates',
    description: "List the authenticated user's certificates.",
    body: [],
    response: [
      {
        name: 'certificates',
        type: 'array',
        description: '{ id, title, institution_name, verification_status, issue_date }[]',
      },
    ],
  },
  {
    id: 'certificates-create',
    method: 'POST',
    path: '/api/v1/certificates',
    category: 'certificates',
    title: 'Create certificate',
    description: 'Upload a certificate; verification starts automatically.',
    body: [
      { name: 'title', type: 'string' },
      { name: 'institution_name', type: 'string' },
      { name: 'program_name', type: 'string' },
      { name: 'issue_date', type: 'string', description: 'Date, YYYY-MM-DD' },
      { name: 'file', type: 'file', description: 'PDF, JPG, PNG' },
    ],
    response: [
      { name: 'id', type: 'string' },
      { name: 'status', type: 'string' },
      { name: 'verification_url', type: 'string' },
    ],
  },
  {
    id: 'certificates-get',
    method: 'GET',
    path: '/api/v1/certificates/{id}',
    category: 'certificates',
    title: 'Get certificate',
    description: 'Get one certificate by its ID.',
    body: [],
    response: [
      { name: 'id', type: 'string' },
      { name: 'title', type: 'string' },
      { name: 'institution_name', type: 'string' },
      { name: 'program_name', type: 'string' },
      { name: 'issue_date', type: 'string' },
      { name: 'verification_status', type: 'string' },
      { name: 'nft_mint_address', type: 'string', optional: true },
      { name: 'arweave_url', type: 'string', optional: true },
    ],
  },
  {
    id: 'verify-start',
    method: 'POST',
    path: '/api/v1/verify/{certificateId}',
    category: 'verification',
    title: 'Verify certificate',
    description: 'Start (or restart) verification of a certificate. Runs started again are limited per wallet (429 with Retry-After).',
    body: [],
    response: [
      { name: 'status', type: 'string' },
      { name: 'details', type: 'string', optional: true },
      { name: 'verification_logs', type: 'array' },
    ],
  },
  {
    id: 'verify-status',
    method: 'GET',
    path: '/api/v1/verify/status/{certificateId}',
    category: 'verification',
    title: 'Verification status',
    description: 'Get the current verification status and its log: the steps of every run, and what institutions, the operator and you did (issue, request, confirmation, decline, revocation), with who and the transaction.',
    body: [],
    response: [
      { name: 'status', type: 'string' },
      { name: 'last_checked', type: 'string' },
      { name: 'verification_logs', type: 'array' },
    ],
  },
  {
    id: 'mint',
    method: 'POST',
    path: '/api/v1/mint/{certificateId}',
    category: 'nft',
    title: 'Mint NFT',
    description: 'Mint a verified certificate as a soulbound NFT with a permanent copy.',
    body: [],
    response: [
      { name: 'mint_address', type: 'string' },
      { name: 'transaction_signature', type: 'string' },
      { name: 'arweave_url', type: 'string' },
    ],
  },
];

/** Category filter plus case-insensitive search over method, path, title and description. */
export function filterApiEndpoints(
  query: string,
  category: 'all' | ApiEndpoint['category'] = 'all',
  endpoints: ApiEndpoint[] = API_ENDPOINTS,
): ApiEndpoint[] {
  const q = query.trim().toLowerCase();
  return endpoints.filter(
    (e) =>
      (category === 'all' || e.category === category) &&
      (!q ||
        [e.method, e.path, e.title, e.description].some((text) => text.toLowerCase().includes(q))),
  );
}

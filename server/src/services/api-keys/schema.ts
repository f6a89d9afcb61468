import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

// Table of migration 2026-11-22T1000-api-keys (kept here until db/schema.ts lists it).
export interface ApiKeyTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string; // sha256 hex of the whole key
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export type ApiKeyRow = ApiKeyTable;

export const apiKeyDb = (db: Kysely<Database>) => db as unknown as Kysely<Database & { api_key: ApiKeyTable }>;

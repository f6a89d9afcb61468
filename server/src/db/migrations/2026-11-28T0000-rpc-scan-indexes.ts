import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// Frozen: never edit after release; add a new dated file instead.
// The JSON-RPC scans (getProgramAccounts, getTokenAccountsByOwner, getTokenLargestAccounts) read an
// owner's accounts a page at a time in key order and stop at the answer budget (json-rpc/limits.ts),
// instead of loading every row of the owner at once. Each page is a range of the owner's keys:
// - (owner, pubkey): any owner's accounts in key order (it replaces the (owner) index, its prefix);
// - (owner, first 8 bytes of data, pubkey): the same for accounts of one type (the Anchor
//   discriminator: issuers, certificate records; also a token mint's accounts), in key order;
// - the token programs' accounts by their owner field (bytes 32..64), as a validator's spl-token-owner
//   account index: getTokenAccountsByOwner reads the owner's accounts, not every token account. Partial
//   (token program rows only), so certificate records pay nothing for it; the queries name the program
//   literally, as the index does.
// Key order is byte order on both databases (PostgreSQL: COLLATE "C"), so pages and the accounts the
// embedded chain holds ahead of the database merge the same way on both.
const TOKEN_PROGRAMS = { token: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', token2022: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb' };

export async function up(db: Kysely<any>): Promise<void> {
  const key = isPostgres(db) ? 'pubkey collate "C"' : 'pubkey';
  await sql.raw(`create index chain_account_owner_key_idx on chain_account (owner, ${key})`).execute(db);
  await db.schema.dropIndex('chain_account_owner_idx').execute();
  await sql.raw(`create index chain_account_owner_tag_key_idx on chain_account (owner, substr(data, 1, 8), ${key})`).execute(db);
  await db.schema.dropIndex('chain_account_owner_tag_idx').execute();
  for (const [name, program] of Object.entries(TOKEN_PROGRAMS)) {
    await sql.raw(`create index chain_account_${name}_owner_idx on chain_account (substr(data, 33, 32), ${key}) where owner = '${program}'`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of Object.keys(TOKEN_PROGRAMS)) await db.schema.dropIndex(`chain_account_${name}_owner_idx`).execute();
  await sql`create index chain_account_owner_tag_idx on chain_account (owner, substr(data, 1, 8))`.execute(db);
  await db.schema.dropIndex('chain_account_owner_tag_key_idx').execute();
  await db.schema.createIndex('chain_account_owner_idx').on('chain_account').column('owner').execute();
  await db.schema.dropIndex('chain_account_owner_key_idx').execute();
}

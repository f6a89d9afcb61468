import { PublicKey, Transaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { ExplorerAddressDto, ExplorerTransactionDto, ExplorerTxSummaryDto } from '../../../../shared/schemas/explorer';
import { EXPLORER_PAGE_SIZE } from '../../../../shared/schemas/explorer';
import { certificatePda } from '../../../../shared/program/pda';
import type { Services } from '../index';

// A read-only explorer of this server's chain for anyone: accounts decoded with the Attesta IDL
// (certificate, issuer, registry), Token-2022 mints with their metadata, and transactions with their
// instructions and events named. It reads the chain through ChainService and transactions from the
// JSON-RPC journal (rpc_transaction, rpc_transaction_account; embedded chain) or, failing that, from
// the transactions this server sent (chain_transaction).


export class ExplorerNotFound extends Error {}

const iso = (unixSeconds: number | null | undefined) => (unixSeconds ? new Date(unixSeconds * 1000).toISOString() : null);

function decodeWire(wire: Uint8Array): Transaction | null {
  try {
    return Transaction.from(wire);
  } catch {
    return null;
  }
}

/** The decoders (Anchor's, the SPL Token layouts), loaded at the explorer's first use, not at every start. */
const decoders = () => import('./describe');

/** An address: its account (if any), its latest transactions, and the certificate it belongs to. */
export async function explorerAddress(svc: Pick<Services, 'db' | 'chain' | 'verdicts'>, address: string, limit = EXPLORER_PAGE_SIZE): Promise<ExplorerAddressDto> {
  const { describeAccount, describeInstruction } = await decoders();
  let key: PublicKey;
  try {
    const bytes = bs58.decode(address);
    if (bytes.length !== 32) throw new Error('size');
    key = new PublicKey(bytes);
  } catch {
    throw new ExplorerNotFound('Not a valid Solana address.');
  }
  const { db } = svc;
  const { programId } = svc.chain;
  const info = await svc.chain.getAccountInfo(key);
  const account = info ? describeAccount(key, info, programId) : null;

  let transactions: ExplorerTxSummaryDto[] = [];
  let hasMore = false;
  // A certificate record's file hash (public on chain: its instructions carry it), for a link to its verdict.
  const hashes = new Set<string>();
  const journal = await db
    .selectFrom('rpc_transaction_account as a')
    .innerJoin('rpc_transaction as t', 't.signature', 'a.signature')
    .select(['t.signature', 't.slot', 't.block_time', 't.err', 't.wire'])
    .where('a.pubkey', '=', address)
    .orderBy('a.slot', 'desc')
    .orderBy('a.signature', 'desc')
    .limit(limit + 1)
    .execute()
    .catch(() => []); // no journal (RPC chains): the server's own transactions below
  if (journal.length) {
    hasMore = journal.length > limit;
    transactions = journal.slice(0, limit).map((t) => {
      const tx = decodeWire(t.wire);
      const described = tx ? tx.instructions.map((ix) => describeInstruction(ix, programId)) : [];
      if (account?.kind === 'certificate') {
        for (const d of described) for (const a of d.args) if (a.name === 'hash' && a.kind === 'hex' && /^[0-9a-f]{64}$/.test(a.value)) hashes.add(a.value);
      }
      return {
        signature: t.signature,
        slot: Number(t.slot),
        block_time: iso(Number(t.block_time)),
        ok: t.err === null,
        instructions: described.map((d) => d.name ?? d.program_name ?? 'Unknown instruction'),
      };
    });
  } else {
    const own = await svc.db
      .selectFrom('chain_transaction as t')
      .innerJoin('certificate as c', 'c.id', 't.certificate_id')
      .select(['t.signature', 't.slot', 't.status', 't.kind', 't.created_at'])
      .where((eb) => eb.or([eb('c.record_address', '=', address), eb('c.nft_mint_address', '=', address), eb('c.holder_wallet', '=', address)]))
      .orderBy('t.slot', 'desc')
      .limit(limit + 1)
      .execute();
    hasMore = own.length > limit;
    transactions = own.slice(0, limit).map((t) => ({ signature: t.signature, slot: t.slot, block_time: t.created_at, ok: t.status === 'success', instructions: [t.kind] }));
  }
  if (!account && !transactions.length) throw new ExplorerNotFound('No account or transaction with this address on this chain.');

  // The certificate page it belongs to — only a verified one's that holds as valid. Its id and holder's
  // id are its share link, and its title is the holder's: a certificate nobody verified (or whose
  // verdict does not hold) stays private, though its record is public on chain.
  const row = await svc.db
    .selectFrom('certificate')
    .selectAll()
    .where((eb) => eb.or([eb('record_address', '=', address), eb('nft_mint_address', '=', address)]))
    .where('verification_status', '=', 'verified')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const cert = row && (await svc.verdicts.verdictFor({ sha256: row.sha256, cert: row, origin: '' })).valid ? row : undefined;
  // The record's hash: the one whose certificate address this is (from a row of this server, or an
  // instruction that named it), so the page can link to the public verdict by hash.
  let recordSha256: string | null = null;
  if (account?.kind === 'certificate') {
    const known = await db.selectFrom('certificate').select('sha256').where('record_address', '=', address).limit(1).executeTakeFirst();
    if (known) hashes.add(known.sha256);
    recordSha256 = [...hashes].find((h) => certificatePda(Buffer.from(h, 'hex'), programId)[0].toBase58() === address) ?? null;
  }
  return {
    address,
    chain: svc.chain.mode,
    account,
    transactions,
    has_more: hasMore,
    certificate: cert ? { id: cert.id, user_id: cert.user_id, title: cert.title, role: cert.record_address === address ? 'record' : 'mint' } : null,
    record_sha256: recordSha256,
  };
}

/** A transaction: its instructions and events decoded, its logs; from the journal or the server's own record. */
export async function explorerTransaction(svc: Pick<Services, 'db' | 'chain'>, signature: string): Promise<ExplorerTransactionDto> {
  const { describeInstruction, eventsFromLogs } = await decoders();
  try {
    if (bs58.decode(signature).length !== 64) throw new Error('size');
  } catch {
    throw new ExplorerNotFound('Not a valid transaction signature.');
  }
  const { db } = svc;
  const { programId } = svc.chain;
  const [journal, own] = await Promise.all([
    db.selectFrom('rpc_transaction').selectAll().where('signature', '=', signature).executeTakeFirst().catch(() => undefined),
    svc.db.selectFrom('chain_transaction').selectAll().where('signature', '=', signature).executeTakeFirst(),
  ]);
  if (!journal && !own) throw new ExplorerNotFound('No transaction with this signature on this chain.');
  const tx = journal ? decodeWire(journal.wire) : null;
  let logs: string[] = [];
  try {
    logs = own ? (JSON.parse(own.logs) as string[]).filter((l) => typeof l === 'string').slice(0, 500) : [];
  } catch {
    logs = [];
  }
  const error = journal?.err ?? own?.error ?? null;
  return {
    signature,
    chain: svc.chain.mode,
    slot: Number(journal?.slot ?? own?.slot ?? 0),
    block_time: journal ? iso(Number(journal.block_time)) : (own?.created_at ?? null),
    ok: journal ? journal.err === null : own?.status === 'success',
    error: typeof error === 'string' ? error.slice(0, 500) : null,
    fee: journal ? String(journal.fee) : null,
    compute_units: own?.compute_units ?? null,
    signers: tx ? tx.signatures.map((s) => s.publicKey.toBase58()) : [],
    instructions: tx ? tx.instructions.map((ix) => describeInstruction(ix, programId)) : [],
    events: eventsFromLogs(logs),
    logs,
    kind: own?.kind ?? null,
  };
}

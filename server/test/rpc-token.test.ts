import fs from 'node:fs';
import { Connection, Keypair, PublicKey, type ParsedAccountData } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID, getAssociatedTokenAddressSync } from '@solana/spl-token';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSOCIATED_TOKEN_ID, TOKEN_2022_ID } from '../../shared/program/ids';
import { parseTokenAccountData, tokenAmount, unpackMint } from '../src/json-rpc/parse-token';
import type { Server } from '../src/app';
import { startTestServer, tmpDataDir } from './helpers';
import { addCertificate, holderBrowser, toB64, walletSign, type Browser } from './mint-support/flow';
import { rpcCall } from './rpc-helpers';

// jsonParsed for Token-2022 on the embedded chain's /rpc, as a validator answers it (Agave's
// account-decoder parse_token + parse_token_extension), read back through web3.js's parsed methods
// — what wallets and explorers pointed at a local chain call to show the certificate NFT.

const dir = tmpDataDir();
let server: Server;
let conn: Connection;
let rpc: string;
let alice: Browser;
let minted: { mint: PublicKey; ata: PublicKey; uri: string; name: string; sha256: string; record: string };
const body = (method: string, params?: unknown[]) => ({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) });

beforeAll(async () => {
  server = await startTestServer(dir);
  rpc = `${server.url}/rpc`;
  conn = new Connection(rpc, 'confirmed');
  alice = await holderBrowser(server);
  const { cert } = await addCertificate(alice, { title: 'Certificate of Completion' });
  const prepared = await alice.mint.prepare.mutate({ id: cert.id });
  const res = await alice.mint.submit.mutate({ id: cert.id, signedTransaction: toB64(walletSign(prepared.transaction, alice.holder)) });
  const attempt = await server.services.db.selectFrom('mint_attempt').select('metadata_url').where('mint_address', '=', res.mint_address).executeTakeFirstOrThrow();
  const mint = new PublicKey(res.mint_address);
  minted = {
    mint,
    ata: getAssociatedTokenAddressSync(mint, alice.holder.publicKey, false, TOKEN_2022_ID, ASSOCIATED_TOKEN_ID),
    uri: attempt.metadata_url,
    name: 'Certificate of Completion',
    sha256: cert.sha256,
    record: cert.record_address,
  };
}, 120_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('jsonParsed Token-2022 accounts on /rpc', () => {
  it('getParsedAccountInfo on the certificate mint: decimals 0, supply 1, no authorities, its extensions and metadata', async () => {
    const info = await conn.getParsedAccountInfo(minted.mint);
    expect(info.value!.owner.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
    const data = info.value!.data as ParsedAccountData;
    expect(data.program).toBe('spl-token-2022');
    expect(data.space).toBe((await conn.getAccountInfo(minted.mint))!.data.length);
    expect(data.parsed).toEqual({
      type: 'mint',
      info: {
        decimals: 0,
        freezeAuthority: null,
        isInitialized: true,
        mintAuthority: null,
        supply: '1',
        extensions: [
          { extension: 'nonTransferable' },
          { extension: 'metadataPointer', state: { authority: null, metadataAddress: minted.mint.toBase58() } },
          {
            extension: 'tokenMetadata',
            state: {
              additionalMetadata: [
                ['sha256', minted.sha256],
                ['record', minted.record],
              ],
              mint: minted.mint.toBase58(),
              name: minted.name,
              symbol: 'ATST',
              updateAuthority: null,
              uri: minted.uri,
            },
          },
        ],
      },
    });
  });

  it("getParsedTokenAccountsByOwner finds the holder's token account: amount 1, initialized, owned by the holder, soulbound", async () => {
    for (const filter of [{ programId: TOKEN_2022_PROGRAM_ID }, { mint: minted.mint }]) {
      const { value } = await conn.getParsedTokenAccountsByOwner(alice.holder.publicKey, filter);
      expect(value).toHaveLength(1);
      expect(value[0].pubkey.equals(minted.ata)).toBe(true);
      const data = value[0].account.data;
      expect(data.program).toBe('spl-token-2022');
      expect(data.parsed.type).toBe('account');
      expect(data.parsed.info).toEqual({
        isNative: false,
        mint: minted.mint.toBase58(),
        owner: alice.holder.publicKey.toBase58(),
        state: 'initialized',
        tokenAmount: { amount: '1', decimals: 0, uiAmount: 1, uiAmountString: '1' },
        // The associated account is created with ImmutableOwner; a NonTransferable mint's accounts get NonTransferableAccount.
        extensions: [{ extension: 'immutableOwner' }, { extension: 'nonTransferableAccount' }],
      });
    }
    // getParsedAccountInfo on the token account says the same.
    const acc = await conn.getParsedAccountInfo(minted.ata);
    expect((acc.value!.data as ParsedAccountData).parsed.info.tokenAmount.amount).toBe('1');
    // Someone else holds nothing of it.
    expect((await conn.getParsedTokenAccountsByOwner(Keypair.generate().publicKey, { programId: TOKEN_2022_PROGRAM_ID })).value).toEqual([]);
  });

  it('answers with the validator wire shape: keys sorted in parsed, space, base64 for everything else', async () => {
    const raw = await rpcCall(rpc, body('getAccountInfo', [minted.mint.toBase58(), { encoding: 'jsonParsed' }]));
    const value = raw.json.result.value;
    expect(Object.keys(value.data)).toEqual(['program', 'parsed', 'space']);
    expect(Object.keys(value.data.parsed)).toEqual(['info', 'type']);
    expect(Object.keys(value.data.parsed.info)).toEqual(['decimals', 'extensions', 'freezeAuthority', 'isInitialized', 'mintAuthority', 'supply']);
    expect(value.space).toBe(value.data.space);
    // Not a token account (the certificate record): jsonParsed falls back to base64, as a validator does.
    const record = await rpcCall(rpc, body('getAccountInfo', [minted.record, { encoding: 'jsonParsed' }]));
    expect(record.json.result.value.data[1]).toBe('base64');
    // getMultipleAccounts and getProgramAccounts parse too; the program scan leaves out what does not parse.
    const multi = await rpcCall(rpc, body('getMultipleAccounts', [[minted.mint.toBase58(), minted.ata.toBase58(), minted.record], { encoding: 'jsonParsed' }]));
    expect(multi.json.result.value.map((a: { data: { parsed?: { type: string } } }) => a.data.parsed?.type ?? null)).toEqual(['mint', 'account', null]);
    const byHolder = await conn.getParsedProgramAccounts(TOKEN_2022_PROGRAM_ID, { filters: [{ memcmp: { offset: 32, bytes: alice.holder.publicKey.toBase58() } }] });
    expect(byHolder.map((a) => a.pubkey.toBase58())).toEqual([minted.ata.toBase58()]);
    // A dataSlice cannot be parsed.
    const sliced = await rpcCall(rpc, body('getAccountInfo', [minted.mint.toBase58(), { encoding: 'jsonParsed', dataSlice: { offset: 0, length: 8 } }]));
    expect(sliced.json.error.code).toBe(-32600);
  });

  it('getTokenSupply, getTokenAccountBalance, getTokenLargestAccounts agree, with the validator errors', async () => {
    expect((await conn.getTokenSupply(minted.mint)).value).toEqual({ amount: '1', decimals: 0, uiAmount: 1, uiAmountString: '1' });
    expect((await conn.getTokenAccountBalance(minted.ata)).value).toEqual({ amount: '1', decimals: 0, uiAmount: 1, uiAmountString: '1' });
    const largest = await conn.getTokenLargestAccounts(minted.mint);
    expect(largest.value.map((a) => [a.address.toBase58(), a.amount])).toEqual([[minted.ata.toBase58(), '1']]);

    const err = async (method: string, params: unknown[]) => (await rpcCall(rpc, body(method, params))).json.error;
    const nobody = Keypair.generate().publicKey.toBase58();
    expect(await err('getTokenSupply', [nobody])).toEqual({ code: -32602, message: 'Invalid param: could not find account' });
    expect(await err('getTokenSupply', [minted.record])).toEqual({ code: -32602, message: 'Invalid param: not a Token mint' });
    expect(await err('getTokenSupply', [minted.ata.toBase58()])).toEqual({ code: -32602, message: 'Invalid param: mint could not be unpacked' });
    expect(await err('getTokenAccountBalance', [minted.mint.toBase58()])).toEqual({ code: -32602, message: 'Invalid param: not a Token account' });
    expect(await err('getTokenAccountBalance', [nobody])).toEqual({ code: -32602, message: 'Invalid param: could not find account' });
    expect(await err('getTokenLargestAccounts', [nobody])).toEqual({ code: -32602, message: 'Invalid param: could not find mint' });
    expect(await err('getTokenAccountsByOwner', [alice.holder.publicKey.toBase58(), { mint: nobody }, { encoding: 'jsonParsed' }])).toEqual({ code: -32602, message: 'Invalid param: could not find mint' });
    expect(await err('getTokenAccountsByOwner', [alice.holder.publicKey.toBase58(), { mint: minted.ata.toBase58() }])).toEqual({ code: -32602, message: 'Invalid param: Token mint could not be unpacked' });
    expect(await err('getTokenAccountsByOwner', [alice.holder.publicKey.toBase58(), { programId: nobody }])).toEqual({ code: -32602, message: 'Invalid param: unrecognized Token program id' });
  });
});

describe('the token parser on its own', () => {
  it('formats amounts as the validator (real_number_string_trimmed)', () => {
    expect(tokenAmount(1n, 0)).toEqual({ amount: '1', decimals: 0, uiAmount: 1, uiAmountString: '1' });
    expect(tokenAmount(100n, 1)).toEqual({ amount: '100', decimals: 1, uiAmount: 10, uiAmountString: '10' });
    expect(tokenAmount(1n, 9)).toEqual({ amount: '1', decimals: 9, uiAmount: 1e-9, uiAmountString: '0.000000001' });
    expect(tokenAmount(1_500_000n, 6).uiAmountString).toBe('1.5');
    expect(tokenAmount(0n, 2).uiAmountString).toBe('0');
  });

  it('refuses what spl-token-2022 would not unpack', () => {
    const owner = TOKEN_2022_PROGRAM_ID.toBase58();
    const mint = new Uint8Array(82);
    mint[45] = 1; // initialized, no authorities
    mint[44] = 6;
    expect(parseTokenAccountData(owner, mint, null)?.parsed).toEqual({ type: 'mint', info: { decimals: 6, freezeAuthority: null, isInitialized: true, mintAuthority: null, supply: '0' } });
    expect(parseTokenAccountData(owner, new Uint8Array(82), null)).toBeNull(); // not initialized
    const badTag = mint.slice();
    badTag[0] = 2; // COption tag neither 0 nor 1
    expect(unpackMint(badTag)).toBeNull();
    // Extension data without the account type byte, or with non-zero padding, is not a mint.
    const extended = new Uint8Array(170);
    extended.set(mint);
    expect(unpackMint(extended)).toBeNull();
    extended[165] = 1;
    expect(unpackMint(extended)).not.toBeNull();
    extended[100] = 7;
    expect(unpackMint(extended)).toBeNull();
    // A token account needs its mint's decimals; without them it does not parse (base64 then).
    const account = new Uint8Array(165);
    account[108] = 1;
    expect(parseTokenAccountData(owner, account, null)).toBeNull();
    expect(parseTokenAccountData(owner, account, { decimals: 2 })?.parsed.info).toMatchObject({ state: 'initialized', tokenAmount: { amount: '0', decimals: 2 } });
    // An unknown extension type: no extensions listed at all (get_extension_types().unwrap_or_default()).
    const withUnknown = new Uint8Array(170);
    withUnknown.set(mint);
    withUnknown[165] = 1;
    withUnknown.set([0xff, 0x00, 0x00, 0x00], 166);
    expect(parseTokenAccountData(owner, withUnknown, null)?.parsed.info).not.toHaveProperty('extensions');
    // Not a token program: not parsed here.
    expect(parseTokenAccountData(PublicKey.default.toBase58(), mint, null)).toBeNull();
  });

  it('never throws on arbitrary bytes, and survives any byte of a real certificate mint changed', async () => {
    const owner = TOKEN_2022_PROGRAM_ID.toBase58();
    const real = new Uint8Array((await conn.getAccountInfo(minted.mint))!.data);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), fc.option(fc.integer({ min: 0, max: 30 })), (data, decimals) => {
        parseTokenAccountData(owner, data, decimals === null ? null : { decimals });
      }),
      { seed: Number(process.env.FC_SEED ?? 20261122), numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.nat({ max: real.length - 1 }), fc.integer({ min: 0, max: 255 }), (i, b) => {
        const d = real.slice();
        d[i] = b;
        const parsed = parseTokenAccountData(owner, d, null);
        if (parsed) expect(parsed.parsed.type).toBe('mint');
      }),
      { seed: Number(process.env.FC_SEED ?? 20261122), numRuns: 500 },
    );
  });
});

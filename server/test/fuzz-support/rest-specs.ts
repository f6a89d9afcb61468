// One fuzz spec per REST endpoint (keyed "METHOD /api/v1/path/{param}", as in ENDPOINTS) and per
// plain HTTP route. The test fails on any ENDPOINTS entry or registered route without a spec here.
import fc from 'fast-check';
import { expect } from 'vitest';
import { CERTIFICATE_STATUSES } from '../../../shared/constants';
import { claimsFor, enc, fetchT, settle, type Fixture } from './harness';
import { formFields, nastyString, nastyValue, oddText, shaped, type FormEntry } from './arbitraries';
import { Keypair } from '@solana/web3.js';
import { IssuerStatus } from '../../../shared/program/codec';
import { makePdf, TEST_HOLDER_NAME } from '../helpers';
import { toB64, walletSign } from '../mint-support/flow';

export interface RestSpec {
  params?: Record<string, fc.Arbitrary<string>>;
  query?: fc.Arbitrary<unknown>;
  /** JSON body value, or FormEntry[] for multipart. */
  body?: fc.Arbitrary<unknown>;
  multipart?: true;
  accepted?: (c: { params: Record<string, string>; query: any; body: any }, status: number, data: any, res: Response) => Promise<void>;
  /** Before the snapshot: markers become live values (a freshly issued sign-in message, its signature). */
  prepare?: (body: unknown) => Promise<unknown>;
  /** A valid call, always tried (with an API key) besides the random ones, so every run reaches the happy path. */
  example: { params?: Record<string, string>; query?: unknown; body?: unknown };
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const base58 = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...B58), minLength: min, maxLength: max });
const hex64 = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 64, maxLength: 64 });
const validDate = fc.constantFrom('2024-05-01', '2024-02-29', '1999-12-31');
const lastText = (entries: FormEntry[], name: string) => {
  const v = [...entries].reverse().find(([n]) => n === name)?.[1];
  return typeof v === 'string' ? v : undefined;
};

/** Makes A an approved institution (proven domain) and has B ask it to confirm B's certificate. */
export async function makeInstitution(f: Fixture) {
  const chain = f.server.services.chain;
  const a = Keypair.fromSecretKey(f.a.wallet.secretKey);
  // Named as B's certificate names its institution: only that institution can be asked.
  await chain.registerIssuer({ authority: a, name: claimsFor('B').institution_name, uri: 'fuzz.example' }, { kind: 'register_issuer' });
  await chain.setIssuerStatus({ authority: a.publicKey, status: IssuerStatus.Approved }, { kind: 'set_issuer_status' });
  const now = new Date().toISOString();
  await f.server.services.db
    .insertInto('issuer_profile')
    .values({ authority: f.a.wallet.address, domain: 'fuzz.example', name: claimsFor('B').institution_name, registered_at: now, proof_status: 'proven', proof_method: 'dns', proven_at: now, checked_at: now, findings: '[]' })
    .execute();
  const b = Keypair.fromSecretKey(f.b.wallet.secretKey);
  const asked = await f.b.client.certificate.requestConfirmation.mutate({ id: f.bCert.id, issuer: f.a.wallet.address, consent: true });
  const r = await f.b.client.certificate.submitConfirmationRequest.mutate({ signedTransaction: toB64(walletSign(asked.transaction, b)) });
  return { requestId: (r.result as { request_id: string }).request_id, keypair: a };
}

export function restSpecs(f: Fixture, permanentId: string, inst: Awaited<ReturnType<typeof makeInstitution>>): Record<string, RestSpec> {
  const db = f.server.services.db;
  const certId = fc.oneof(fc.constantFrom(f.aCert.id, f.aRejected.id, f.bCert.id, 'cert-1'), nastyString);
  const fileForm = formFields({
    title: { file: false, valid: oddText(200) },
    institution_name: { file: false, valid: oddText(200) },
    program_name: { file: false, valid: oddText(200) },
    issue_date: { file: false, valid: validDate },
    file: { file: true, valid: fc.constant('') },
  });
  const validForm: fc.Arbitrary<FormEntry[]> = fc.record({ title: oddText(200), inst: oddText(200), prog: oddText(200), date: validDate }).map((v) => [
    ['title', v.title],
    ['institution_name', v.inst],
    ['program_name', v.prog],
    ['issue_date', v.date],
    ['file', { file: { kind: 'pdf' }, filename: 'c.pdf', type: 'application/pdf' }],
  ]);
  const fetchCert = async (id: string) => {
    const r = await fetchT(`${f.url}/files/certificates/${enc(id)}`, { headers: { cookie: f.a.cookie() } });
    return r.status;
  };

  return {
    'POST /api/v1/auth/nonce': {
      example: { body: { wallet_address: f.b.wallet.address } },
      body: shaped({ wallet_address: fc.oneof(base58(32, 44), base58(1, 31)) }),
      accepted: async (c, _s, d) => expect(d.message).toContain(`\n${String(c.body.wallet_address).trim()}\n`),
    },
    'POST /api/v1/auth/connect': {
      example: { body: { wallet_address: f.a.wallet.address, message: '$NONCE', signature: '$SIGN' } },
      body: shaped({ wallet_address: fc.oneof(base58(32, 44), fc.constant(f.a.wallet.address)), signature: fc.oneof(base58(64, 90), fc.constant('$SIGN')), message: fc.oneof(nastyString, fc.constant('$NONCE')) }),
      // '$NONCE': a real message issued for that address; '$SIGN': A's wallet signs it — the checks behind the schema are reached.
      prepare: async (b: any) => {
        if (!b || typeof b !== 'object' || typeof b.wallet_address !== 'string') return b;
        const out = { ...b };
        if (out.message === '$NONCE') {
          const r = await fetchT(`${f.url}/api/v1/auth/nonce`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' }, body: JSON.stringify({ wallet_address: b.wallet_address }) });
          out.message = r.ok ? ((await r.json()) as { message: string }).message : 'no nonce';
        }
        if (out.signature === '$SIGN') out.signature = f.a.wallet.sign(String(out.message));
        return out;
      },
      accepted: async (c, _s, d) => {
        expect(d.user.wallet_address).toBe(String(c.body.wallet_address).trim());
        const me = await fetchT(`${f.url}/api/v1/certificates`, { headers: { authorization: `Bearer ${d.token}` } });
        expect(me.status, 'the connect token works').toBe(200);
      },
    },
    'POST /api/v1/auth/disconnect': { example: {}, body: nastyValue },
    'GET /api/v1/profile': { example: {}, accepted: async (_c, _s, d) => expect(d.id).toBe(f.a.user.id) },
    'POST /api/v1/profile': {
      example: { body: { full_name: ` Ünï %_'"\\;-- 😀 `, email: ' A@Example.com ' } },
      body: fc.oneof(shaped({ full_name: fc.oneof(oddText(130), fc.constantFrom('', '   ')), email: fc.oneof(nastyString, fc.constantFrom('', 'a@b.co', 'not-an-email')) }), nastyValue),
      accepted: async (c, _s, d) => {
        const row = await db.selectFrom('user').select(['full_name', 'email']).where('id', '=', f.a.user.id).executeTakeFirstOrThrow();
        expect(row.full_name).toBe(String(c.body.full_name).trim());
        expect(d).toMatchObject({ id: f.a.user.id, full_name: row.full_name, email: row.email });
        // The other specs' certificates name the test holder: put the name back.
        await db.updateTable('user').set({ full_name: TEST_HOLDER_NAME }).where('id', '=', f.a.user.id).execute();
      },
    },
    'GET /api/v1/certificates': {
      example: { query: { status: 'all', search: ' %_ ' } },
      query: shaped({ status: fc.constantFrom('all', ...CERTIFICATE_STATUSES, 'ALL'), search: fc.oneof(oddText(200), fc.constantFrom('%', '_', 'Science')) }),
      accepted: async (c, _s, d) => {
        for (const x of d.certificates) if (typeof c.query?.status === 'string' && c.query.status !== 'all') expect(x.verification_status).toBe(c.query.status);
        // Never valid unless verified on record (what a verifier reads, beside the recorded status).
        for (const x of d.certificates) if (x.verification_status !== 'verified') expect(x.valid).toBe(false);
      },
    },
    'POST /api/v1/certificates': {
      example: {
        body: [['title', ` %_'"\\;-- Ünï 😀 `], ['institution_name', 'Northwind'], ['program_name', 'CS'], ['issue_date', '2024-02-29'], ['file', { file: { kind: 'pdf' }, filename: 'c.pdf', type: 'application/pdf' }]],
      },
      multipart: true,
      body: fc.oneof({ weight: 3, arbitrary: fileForm }, { weight: 1, arbitrary: validForm }),
      accepted: async (c, status, d, res) => {
        expect(status).toBe(201);
        expect(res.headers.get('location')).toBe(`/api/v1/certificates/${enc(d.id)}`);
        const row = await db.selectFrom('certificate').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
        for (const k of ['title', 'institution_name', 'program_name', 'issue_date'] as const) expect(row[k]).toBe(lastText(c.body, k)!.trim());
        await settle(f);
      },
    },
    'GET /api/v1/certificates/{id}': { example: { params: { id: f.aCert.id } }, params: { id: certId }, accepted: async (c, _s, d) => expect(d.id).toBe(c.params.id.trim()) },
    'POST /api/v1/verify/{certificateId}': { example: { params: { certificateId: f.aRejected.id } }, params: { certificateId: certId }, body: nastyValue, accepted: async () => settle(f) },
    'GET /api/v1/verify/status/{certificateId}': { example: { params: { certificateId: f.aCert.id } }, params: { certificateId: certId } },
    'GET /api/v1/verify/hash/{sha256}': {
      example: { params: { sha256: f.aCert.sha256.toUpperCase() } },
      params: { sha256: fc.oneof(hex64, fc.constantFrom(f.aCert.sha256, ` ${f.bCert.sha256.toUpperCase()}`), nastyString) },
      accepted: async (c, _s, d) => expect(d.sha256).toBe(c.params.sha256.trim().toLowerCase()),
    },
    'POST /api/v1/mint/{certificateId}': { example: { params: { certificateId: f.aCert.id } }, params: { certificateId: certId }, body: fc.oneof(shaped({ signed_transaction: fc.oneof(fc.base64String({ maxLength: 2100 }), nastyString) }), nastyValue) },

    // Institutions (issue 14): A is an approved institution; B asked it to confirm bCert.
    'GET /api/v1/issuer/certificates': {
      example: { query: { status: 'all', search: ' %_ ' } },
      query: shaped({ status: fc.constantFrom('all', 'verified', 'revoked', 'superseded', 'pending'), search: oddText(200) }),
      accepted: async (c, _s, d) => {
        for (const x of d.certificates) if (typeof c.query?.status === 'string' && c.query.status !== 'all') expect(x.verification_status).toBe(c.query.status);
        // Never valid unless verified on record (what a verifier reads, beside the recorded status).
        for (const x of d.certificates) if (x.verification_status !== 'verified') expect(x.valid).toBe(false);
      },
    },
    'POST /api/v1/issuer/certificates': {
      example: { body: [['title', ` Ünï %_'; `], ['program_name', 'CS'], ['issue_date', '2024-02-29'], ['holder_wallet', f.b.wallet.address], ['expires_on', '2099-01-01'], ['file', { file: { kind: 'pdf' }, filename: 'i.pdf', type: 'application/pdf' }]] },
      multipart: true,
      body: formFields({
        title: { file: false, valid: oddText(200) },
        program_name: { file: false, valid: oddText(200) },
        issue_date: { file: false, valid: validDate },
        holder_wallet: { file: false, valid: fc.oneof(base58(32, 44), fc.constant(f.b.wallet.address)) },
        expires_on: { file: false, valid: fc.constantFrom('', '2099-01-01', '2001-01-01', '2099-02-30') },
        file: { file: true, valid: fc.constant('') },
      }),
      accepted: async (_c, status, d) => {
        expect(status).toBe(202);
        const row = await db.selectFrom('wallet_action').selectAll().where('id', '=', d.action_id).executeTakeFirstOrThrow();
        expect([row.kind, row.signer, row.status]).toEqual(['issue_certificate', f.a.wallet.address, 'prepared']);
      },
    },
    'GET /api/v1/issuer/requests': {
      example: { query: { status: 'all' } },
      query: shaped({ status: fc.constantFrom('all', 'open', 'declined', 'x') }),
      accepted: async (_c, _s, d) => {
        for (const r of d.requests) expect(r.holder_wallet).toBe(f.b.wallet.address);
      },
    },
    'POST /api/v1/issuer/requests/{id}/confirm': {
      example: { params: { id: inst.requestId } },
      params: { id: fc.oneof(fc.constant(inst.requestId), nastyString) },
      body: nastyValue,
      accepted: async (_c, status) => expect(status).toBe(202),
    },
    'POST /api/v1/issuer/requests/{id}/decline': {
      example: { params: { id: inst.requestId }, body: { reason: ` Ünï %_'; ` } },
      params: { id: fc.oneof(fc.constant(inst.requestId), nastyString) },
      body: shaped({ reason: oddText(600) }),
      accepted: async (c) => {
        const q = await db.selectFrom('confirmation_request').selectAll().where('id', '=', c.params.id.trim()).executeTakeFirstOrThrow();
        expect(q.status).toBe('declined');
      },
    },
    'POST /api/v1/issuer/certificates/{id}/revoke': {
      example: { params: { id: f.bCert.id }, body: { reason: 'revoked_by_issuer', note: ` Ünï %_'; ` } },
      params: { id: certId },
      body: shaped({ reason: fc.constantFrom('revoked_by_issuer', 'revoked_fraud', 'x'), note: oddText(1100) }),
      accepted: async (_c, status) => expect(status).toBe(202),
    },
    'POST /api/v1/issuer/transactions': {
      // '$SIGNED': A prepares an issue of a fresh file to B and signs it, so sending itself is reached.
      example: { body: { signed_transaction: '$SIGNED' } },
      body: shaped({ signed_transaction: fc.oneof(fc.base64String({ maxLength: 2100 }), nastyString, fc.constant('$SIGNED')) }),
      prepare: async (b: any) => {
        if (b?.signed_transaction !== '$SIGNED') return b;
        const fd = new FormData();
        for (const [k, v] of Object.entries({ title: 'Fuzz Issued', program_name: 'CS', issue_date: '2024-05-01', holder_wallet: f.b.wallet.address })) fd.set(k, v);
        fd.set('certificate_file', new File([(await makePdf(['Fuzz Institute', 'Fuzz Issued'])) as BlobPart], 'i.pdf', { type: 'application/pdf' }));
        const p = await f.a.client.issuer.issue.mutate(fd);
        return { signed_transaction: toB64(walletSign(p.transaction, inst.keypair)) };
      },
      accepted: async (_c, _s, d) => {
        expect(d.kind).toBe('issue_certificate');
        const row = await db.selectFrom('certificate').selectAll().where('id', '=', d.result.certificate_id).executeTakeFirstOrThrow();
        expect([row.holder_wallet, row.verification_status, row.issuer_authority]).toEqual([f.b.wallet.address, 'verified', f.a.wallet.address]);
      },
    },

    // Plain HTTP routes (http/files.ts, http/permanent.ts): path params fuzzed the same way.
    'GET /files/certificates/{id}': {
      example: { params: { id: f.aCert.id }, query: { download: '1' } },
      params: { id: certId },
      query: shaped({ download: fc.constantFrom('1', '0', 'true') }),
      accepted: async (c, _s, _d, res) => {
        expect(res.headers.get('content-type')).toBe('application/pdf');
        expect(res.headers.get('x-content-sha256')).toMatch(/^[0-9a-f]{64}$/);
        // Anonymous/other callers only ever get a verified certificate.
        expect(await fetchCert(c.params.id)).toBe(200);
      },
    },
    'GET /files/photos/{userId}': { example: { params: { userId: f.a.user.id } }, params: { userId: fc.oneof(fc.constantFrom(f.a.user.id, f.b.user.id), nastyString) } },
    'GET /permanent/{id}': { example: { params: { id: permanentId } }, params: { id: fc.oneof(hex64, fc.constant(permanentId.toUpperCase()), nastyString) } },
    'HEAD /permanent/{id}': { example: { params: { id: permanentId } }, params: { id: fc.oneof(hex64, fc.constant(permanentId), nastyString) } },
  };
}

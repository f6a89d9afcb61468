// One fuzz spec per REST endpoint (keyed "METHOD /api/v1/path/{param}", as in ENDPOINTS) and per
// plain HTTP route. The test fails on any ENDPOINTS entry or registered route without a spec here.
import fc from 'fast-check';
import { expect } from 'vitest';
import { CERTIFICATE_STATUSES } from '../../../shared/constants';
import { enc, fetchT, settle, type Fixture } from './harness';
import { formFields, nastyString, nastyValue, oddText, shaped, type FormEntry } from './arbitraries';

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

export function restSpecs(f: Fixture, permanentId: string): Record<string, RestSpec> {
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
    'GET /api/v1/certificates': {
      example: { query: { status: 'all', search: ' %_ ' } },
      query: shaped({ status: fc.constantFrom('all', ...CERTIFICATE_STATUSES, 'ALL'), search: fc.oneof(oddText(200), fc.constantFrom('%', '_', 'Science')) }),
      accepted: async (c, _s, d) => {
        for (const x of d.certificates) if (typeof c.query?.status === 'string' && c.query.status !== 'all') expect(x.verification_status).toBe(c.query.status);
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

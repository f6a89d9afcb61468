// One fuzz spec per tRPC procedure: its input arbitrary and, for accepted calls, what must hold.
// The test enumerates appRouter._def.procedures and fails on any procedure without a spec here.
import fc from 'fast-check';
import { expect } from 'vitest';
import { CERTIFICATE_STATUSES } from '../../../shared/constants';
import { contactPriorities, feedbackCategories, inquiryTypes } from '../../../shared/schemas/support';
import { fetchT, settle, type Fixture } from './harness';
import { formFields, nastyString, oddText, shaped, type FormEntry } from './arbitraries';

export interface ProcSpec {
  /** A JSON input, or FormEntry[] for a multipart procedure. */
  input: fc.Arbitrary<unknown>;
  multipart?: true;
  /** Before the snapshot: markers become live values (e.g. a freshly issued sign-in message). */
  prepare?: (input: unknown) => Promise<unknown>;
  /** For an accepted call: what it returned and wrote must be consistent with the input. */
  accepted?: (input: any, data: any) => Promise<void>;
  /** A valid input, always tried (signed in) besides the random ones, so every run reaches the happy path. */
  example?: { input: unknown };
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const base58 = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...B58), minLength: min, maxLength: max });
const hex64 = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 64, maxLength: 64 });
const base64ish = fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 1300 }).map((b) => Buffer.from(b).toString('base64')), fc.constantFrom('AAAA', '====', 'AQ==', '!!!!'));
const validDate = fc.constantFrom('2024-05-01', '2024-02-29', '1999-12-31', ' 2020-01-01 ', '0001-01-01', '9999-12-31');
const wrongDate = fc.constantFrom('2023-02-29', '2024-13-01', '2024-00-10', '24-05-01', '2024/05/01', '2024-05-01T00:00:00Z', '+02024-05-01');
const lastText = (entries: FormEntry[], name: string) => {
  const v = [...entries].reverse().find(([n]) => n === name)?.[1];
  return typeof v === 'string' ? v : undefined;
};

export function trpcSpecs(f: Fixture): Record<string, ProcSpec> {
  const db = f.server.services.db;
  const recordAddress = (sha256: string) => f.server.services.chain.certificateAddress(Buffer.from(sha256, 'hex')).toBase58();
  // Plausible ids (own, rejected, another holder's, a demo id); fieldValue() mixes in the nasty ones.
  const certId = fc.constantFrom(f.aCert.id, f.aCert.id, f.aRejected.id, f.bCert.id, 'cert-1', ` ${f.aCert.id} `, f.aCert.id.toUpperCase());
  const userId = fc.constantFrom(f.a.user.id, f.b.user.id);
  const noInput = shaped({}); // input-less procedures must ignore (or refuse) whatever is sent
  const certForm = formFields({
    title: { file: false, valid: oddText(200) },
    institution_name: { file: false, valid: oddText(200) },
    program_name: { file: false, valid: oddText(200) },
    issue_date: { file: false, valid: fc.oneof(validDate, wrongDate) },
    certificate_file: { file: true, valid: fc.constant('') },
  });
  // One in four forms is fully valid, so accepted uploads (and their round trip) are exercised too.
  const validCertForm: fc.Arbitrary<FormEntry[]> = fc
    .record({ title: oddText(200), institution_name: oddText(200), program_name: oddText(200), issue_date: validDate, filename: fc.constantFrom('cert.pdf', 'ünï cödé.pdf', "o'brien;--.pdf") })
    .map((v) => [
      ['title', v.title],
      ['institution_name', v.institution_name],
      ['program_name', v.program_name],
      ['issue_date', v.issue_date],
      ['certificate_file', { file: { kind: 'pdf' }, filename: v.filename, type: 'application/pdf' }],
    ]);

  return {
    health: { example: { input: undefined }, input: noInput, accepted: async (_i, d) => expect(d).toEqual({ ok: true }) },

    'auth.nonce': {
      example: { input: { address: f.b.wallet.address } },
      input: shaped({ address: fc.oneof(base58(32, 44), base58(1, 31), base58(45, 60)) }),
      accepted: async (i, d) => {
        expect(d.message).toContain(`\n${String(i.address).trim()}\n`);
        expect(await db.selectFrom('sign_in_nonce').select('nonce').where('nonce', '=', d.nonce).executeTakeFirst()).toBeTruthy();
      },
    },
    'auth.signIn': {
      input: shaped({ address: fc.oneof(base58(32, 44), fc.constant(f.b.wallet.address)), message: fc.oneof(fc.constant('$NONCE'), nastyString), signature: base58(64, 90) }),
      // '$NONCE': a real, unused message for that address, so the signature check itself is reached.
      prepare: async (i: any) => {
        if (i?.message !== '$NONCE' || typeof i.address !== 'string') return i;
        const res = await fetchT(`${f.url}/trpc/auth.nonce`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: i.address }) });
        const j = (await res.json()) as any;
        return { ...i, message: j.result?.data?.message ?? i.message };
      },
    },
    'auth.me': { example: { input: undefined }, input: noInput },
    'auth.signOut': { example: { input: undefined }, input: noInput },

    'profile.get': { example: { input: undefined }, input: noInput },
    'profile.update': {
      example: { input: { full_name: ` Ünï %_'"\\;-- 中 `, email: 'A.B@Example.COM' } },
      input: shaped({ full_name: oddText(120), email: fc.oneof(fc.constantFrom('', null, 'A.B@Example.COM', ' x@y.io '), nastyString) }),
      accepted: async (i, d) => {
        expect(d.full_name).toBe(String(i.full_name).trim());
        expect(d.email).toBe(i.email ? String(i.email).trim().toLowerCase() : null);
        const row = await db.selectFrom('user').select(['full_name', 'email']).where('id', '=', d.id).executeTakeFirstOrThrow();
        expect(row).toEqual({ full_name: d.full_name, email: d.email });
      },
    },
    'profile.uploadPhoto': {
      example: { input: [['photo', { file: { kind: 'png' }, filename: 'me.png', type: 'image/png' }]] },
      multipart: true,
      input: fc.oneof(
        formFields({ photo: { file: true, valid: fc.constant('') } }),
        fc.constantFrom<FormEntry[]>([['photo', { file: { kind: 'png' }, filename: 'me.png', type: 'image/png' }]], [['photo', { file: { kind: 'png' }, filename: 'ünï.PNG', type: '' }]]),
      ),
      accepted: async (_i, d) => {
        // The photo is stored and served as an image.
        const res = await fetchT(`${f.url}/files/photos/${encodeURIComponent(d.id)}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^image\//);
      },
    },

    'certificate.create': {
      example: { input: [['title', ` %_'"\\;-- Ünï 😀 `], ['institution_name', 'Northwind'], ['program_name', 'CS'], ['issue_date', '2024-02-29'], ['certificate_file', { file: { kind: 'pdf' }, filename: 'c.pdf', type: 'application/pdf' }]] },
      multipart: true,
      input: fc.oneof({ weight: 3, arbitrary: certForm }, { weight: 2, arbitrary: validCertForm }),
      accepted: async (i: FormEntry[], d) => {
        // Valid-but-odd details round-trip exactly (trimmed), as returned and as stored.
        for (const k of ['title', 'institution_name', 'program_name', 'issue_date'] as const) expect(d[k]).toBe(lastText(i, k)!.trim());
        expect(d.verification_status).toBe('pending');
        const row = await db.selectFrom('certificate').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
        expect([row.title, row.institution_name, row.program_name, row.sha256]).toEqual([d.title, d.institution_name, d.program_name, d.sha256]);
        await settle(f); // its verification runs in the background
      },
    },
    'certificate.list': {
      example: { input: { search: ' %_ ', status: 'all', limit: 5 } },
      input: shaped({
        search: fc.oneof(oddText(200), fc.constantFrom('%', '_', '\\', 'Science A', 'science')),
        status: fc.constantFrom('all', ...CERTIFICATE_STATUSES, 'ALL'),
        standing: fc.constantFrom('valid', 'not_valid', 'VALID', 'invalid'),
        limit: fc.integer({ min: -5, max: 250 }),
      }),
      accepted: async (i, d: any[]) => {
        const term = typeof i?.search === 'string' ? i.search.trim().toLowerCase() : '';
        if (typeof i?.limit === 'number') expect(d.length).toBeLessThanOrEqual(i.limit);
        for (const c of d) {
          expect(c.user_id, 'only the caller’s own certificates').toBe(f.a.user.id);
          if (i?.status && i.status !== 'all') expect(c.verification_status).toBe(i.status);
          // By standing: verified on record, and valid or not for a verifier as asked.
          if (i?.standing) expect({ status: c.verification_status, valid: c.public_valid }).toEqual({ status: 'verified', valid: i.standing === 'valid' });
          // Wildcards are literal: every row really contains the term.
          if (term) expect([c.title, c.institution_name, c.program_name].some((s: string) => s.toLowerCase().includes(term)), `${JSON.stringify(term)} in ${c.title}`).toBe(true);
        }
      },
    },
    'certificate.byId': { example: { input: { id: f.aCert.id } }, input: shaped({ id: certId }), accepted: async (i, d) => expect(d.id).toBe(String(i.id).trim()) },
    'certificate.logs': { example: { input: { id: f.aCert.id } }, input: shaped({ id: certId }) },
    'certificate.stats': { example: { input: undefined }, input: noInput },
    'certificate.startVerification': { example: { input: { id: f.aCert.id } }, input: shaped({ id: certId }), accepted: async () => settle(f) },
    'certificate.retryVerification': { example: { input: { id: f.aRejected.id } }, input: shaped({ id: certId }), accepted: async () => settle(f) },
    'certificate.attempts': {
      example: { input: { id: f.aRejected.id } },
      input: shaped({ id: certId }),
      accepted: async (i, d: any[]) => {
        // Oldest first, numbered from 1, every step inside the run (job) it belongs to.
        expect(d.map((a) => a.number)).toEqual(d.map((_a, n) => n + 1));
        for (const a of d) for (const l of a.logs) expect([l.job_id, l.certificate_id]).toEqual([a.job_id, String(i.id).trim()]);
      },
    },
    'certificate.events': {
      example: { input: { id: f.aCert.id } },
      input: shaped({ id: certId }),
      accepted: async (i, d: any[]) => {
        // The caller's own certificate only, oldest first.
        for (const e of d) expect(e.certificate_id).toBe(String(i.id).trim());
        expect(d.map((e) => e.at)).toEqual([...d.map((e) => e.at)].sort());
      },
    },
    'certificate.updateClaims': {
      // Claims the PDF does not name: the certificate is verified again (and rejected again).
      example: { input: { id: f.aRejected.id, title: ` Doctor of Astrology %_'; `, institution_name: 'Ünï Institute', program_name: 'Star Charts', issue_date: '2024-02-29' } },
      input: shaped({ id: certId, title: oddText(200), institution_name: oddText(200), program_name: oddText(200), issue_date: fc.oneof(validDate, wrongDate) }),
      accepted: async (i, d) => {
        for (const k of ['title', 'institution_name', 'program_name', 'issue_date'] as const) expect(d.certificate[k]).toBe(String(i[k]).trim());
        expect(d.certificate.verification_status).toBe('pending');
        const row = await db.selectFrom('certificate').select(['title', 'verification_status', 'user_id']).where('id', '=', d.certificate.id).executeTakeFirstOrThrow();
        expect(row).toEqual({ title: d.certificate.title, verification_status: expect.any(String), user_id: f.a.user.id });
        expect(await db.selectFrom('verification_job').select('id').where('id', '=', d.job_id).executeTakeFirst()).toBeTruthy();
        await settle(f); // its verification runs in the background
      },
    },
    'certificate.onStatus': {
      example: { input: { id: f.aCert.id } },
      input: shaped({ id: certId, lastEventId: fc.oneof(nastyString, fc.constant(null)) }),
      accepted: async (i, d) => expect(d?.certificate_id ?? d?.data?.certificate_id).toBe(String(i.id).trim()),
    },

    'public.view': {
      example: { input: { userId: f.a.user.id, certificateId: f.aCert.id } },
      input: shaped({ userId, certificateId: certId }, fc.constantFrom({ userId: f.a.user.id, certificateId: f.aCert.id }, { userId: f.b.user.id, certificateId: ` ${f.bCert.id}` })),
    },
    'public.verifyById': { example: { input: { certificateId: f.aCert.id } }, input: shaped({ certificateId: certId }) },
    'public.verifyByHash': {
      example: { input: { sha256: f.aCert.sha256.toUpperCase() } },
      input: shaped({ sha256: fc.oneof(hex64, fc.constantFrom(f.aCert.sha256, f.aCert.sha256.toUpperCase(), ` ${f.bCert.sha256} `)) }),
      accepted: async (i, d) => expect(d.sha256).toBe(String(i.sha256).trim().toLowerCase()),
    },
    'public.verifyFile': {
      example: { input: [['file', { file: { kind: 'dup', which: 'own' }, filename: 'c.pdf', type: 'application/pdf' }], ['certificateId', f.aCert.id]] },
      multipart: true,
      input: formFields({ file: { file: true, valid: fc.constant('') }, certificateId: { file: false, valid: fc.constantFrom(f.aCert.id, f.bCert.id, 'cert-1', '') } }),
    },

    'explorer.address': {
      example: { input: { address: recordAddress(f.aCert.sha256), limit: 5 } },
      input: shaped({
        address: fc.oneof(base58(32, 44), base58(1, 31), base58(45, 60), fc.constantFrom(recordAddress(f.aCert.sha256), recordAddress(f.bCert.sha256), f.a.wallet.address, '11111111111111111111111111111111', 'So11111111111111111111111111111111111111112')),
        limit: fc.integer({ min: -5, max: 60 }),
      }),
      accepted: async (i, d) => {
        expect(d.address).toBe(String(i.address).trim());
        if (typeof i.limit === 'number') expect(d.transactions.length).toBeLessThanOrEqual(i.limit);
      },
    },
    'explorer.transaction': {
      // '$SIG': a real signature of this chain, so the decoding itself is reached.
      example: { input: { signature: '$SIG' } },
      input: shaped({ signature: fc.oneof(base58(64, 88), base58(1, 63), fc.constant('$SIG')) }),
      prepare: async (i: any) => {
        if (i?.signature !== '$SIG') return i;
        const t = await db.selectFrom('chain_transaction').select('signature').orderBy('slot', 'desc').executeTakeFirstOrThrow();
        return { ...i, signature: t.signature };
      },
      accepted: async (i, d) => expect(d.signature).toBe(String(i.signature).trim()),
    },

    'mint.prepare': { example: { input: { id: f.aCert.id } }, input: shaped({ id: certId }) },
    'mint.submit': { input: shaped({ id: certId, signedTransaction: base64ish }) },
    'mint.links': { example: { input: { id: f.aCert.id } }, input: shaped({ id: certId }) },

    'support.chat': {
      example: { input: { messages: [{ role: 'user', content: 'How do I verify a certificate?' }] } },
      input: shaped(
        { messages: fc.array(shaped({ role: fc.constantFrom('user', 'assistant', 'system'), content: fc.oneof(oddText(100), fc.constant('How do I verify a certificate?')) }), { maxLength: 4 }) },
        fc.record({ messages: fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.oneof(oddText(100), fc.constant('How do I verify a certificate?')) }), { minLength: 1, maxLength: 3 }) }),
      ),
      accepted: async (_i, d) => expect(typeof d.reply).toBe('string'),
    },
    'support.contact': {
      example: { input: { name: ` O'Brien %_ `, email: 'a@b.co', message: ` Hello; --  ` } },
      input: shaped({
        name: oddText(200),
        email: fc.constantFrom('a@b.co', ' X@Y.io ', 'o\'brien+%_@x.io', 'no-at-sign', 'a@b'),
        subject: oddText(300),
        inquiryType: fc.constantFrom(...inquiryTypes, 'GENERAL'),
        priority: fc.constantFrom(...contactPriorities, 'high'),
        message: oddText(10_000),
      }),
      accepted: async (i) => {
        const row = await db.selectFrom('contact_message' as never).selectAll().where('message' as never, '=', String(i.message).trim() as never).executeTakeFirst();
        expect(row, 'the contact message is stored as sent (trimmed)').toBeTruthy();
      },
    },
    'support.feedback': {
      example: { input: { message: 'Great 😀', category: 'feature' } },
      input: shaped({ message: oddText(10_000), category: fc.constantFrom(...feedbackCategories, 'praise'), userEmail: fc.constantFrom('', 'a@b.co', 'bad') }),
    },

    'apiKeys.create': {
      example: { input: { name: ` ü%_'; `} },
      input: shaped({ name: oddText(60) }),
      accepted: async (i, d) => {
        expect(d.api_key.name).toBe(String(i.name).trim());
        expect(d.key).toMatch(/^atst_/);
      },
    },
    // Institutions (issue 14). A is a holder and an operator, not an institution: the issuer.* procedures
    // (but me/register) are refused to it (FORBIDDEN), and must be well-formed refusals that write nothing.
    'issuer.me': { example: { input: undefined }, input: noInput, accepted: async (_i, d) => expect(d).toBeNull() },
    'issuer.register': {
      example: { input: { name: ` Ünï %_'; Institute `, domain: 'https://Uni.Example/' } },
      input: shaped({ name: fc.oneof(oddText(80), fc.constant('É'.repeat(40))), domain: fc.oneof(fc.constantFrom('uni.example', 'localhost', '127.0.0.1', 'münchen.de', 'a.b:8443', '-x.com'), oddText(260)) }),
      accepted: async (_i, d) => {
        const row = await db.selectFrom('wallet_action').selectAll().where('id', '=', d.action_id).executeTakeFirstOrThrow();
        expect([row.kind, row.signer, row.status]).toEqual(['register_issuer', f.a.wallet.address, 'prepared']);
      },
    },
    'issuer.checkDomain': { input: noInput },
    'issuer.issue': {
      multipart: true,
      input: formFields({
        title: { file: false, valid: oddText(200) },
        program_name: { file: false, valid: oddText(200) },
        issue_date: { file: false, valid: fc.oneof(validDate, wrongDate) },
        holder_wallet: { file: false, valid: fc.oneof(base58(32, 44), fc.constant(f.b.wallet.address)) },
        expires_on: { file: false, valid: fc.oneof(validDate, wrongDate, fc.constant('')) },
        certificate_file: { file: true, valid: fc.constant('') },
      }),
    },
    'issuer.requests': { input: shaped({ status: fc.constantFrom('all', 'open', 'declined', 'OPEN') }) },
    'issuer.confirm': { input: shaped({ requestId: fc.oneof(nastyString, fc.constant('q_1')) }) },
    'issuer.decline': { input: shaped({ requestId: fc.oneof(nastyString, fc.constant('q_1')), reason: oddText(600) }) },
    'issuer.revoke': { input: shaped({ id: certId, reason: fc.constantFrom('revoked_by_issuer', 'revoked_fraud', 'other'), note: oddText(1100) }) },
    'issuer.submit': { input: shaped({ signedTransaction: base64ish }) },
    'issuer.certificates': { input: shaped({ search: oddText(200), status: fc.constantFrom('all', 'verified', 'revoked', 'pending'), limit: fc.integer({ min: -5, max: 250 }) }) },
    'certificate.requestConfirmation': { input: shaped({ id: certId, issuer: fc.oneof(base58(32, 44), base58(1, 31)), consent: fc.constantFrom(true, false, 'yes') }) },
    'certificate.submitConfirmationRequest': { input: shaped({ signedTransaction: base64ish }) },
    'certificate.issuersFor': {
      example: { input: { id: f.aCert.id } },
      input: shaped({ id: certId }),
      accepted: async (i, d) => {
        expect(Array.isArray(d.issuers) && Array.isArray(d.requests)).toBe(true);
        expect(String(i.id).trim()).not.toBe(f.bCert.id); // only the caller's own
      },
    },
    'operator.issuers': { example: { input: { status: 'pending' } }, input: shaped({ status: fc.constantFrom('all', 'pending', 'approved', 'suspended', 'x') }) },
    'operator.setStatus': { input: shaped({ authority: fc.oneof(base58(32, 44), base58(1, 31)), status: fc.constantFrom('approved', 'suspended', 'pending') }) },
    // Never a real certificate id: a fraud revocation of A's or B's certificate would end the fixtures.
    'operator.revoke': { input: shaped({ id: fc.oneof(nastyString, fc.constant('cert-1')), note: oddText(1100) }) },
    'operator.revokePreview': { example: { input: { id: f.aCert.id } }, input: shaped({ id: certId }), accepted: async (i, d) => expect(d.id).toBe(String(i.id).trim()) },
    'operator.audit': {
      example: { input: { limit: 5 } },
      input: shaped({ limit: fc.integer({ min: -5, max: 150 }), before: fc.oneof(oddText(120), fc.constant('2099-01-01T00:00:00.000Z|z')) }),
      accepted: async (i, d) => {
        if (typeof i?.limit === 'number') expect(d.entries.length).toBeLessThanOrEqual(i.limit);
      },
    },

    'apiKeys.list': { example: { input: undefined }, input: noInput },
    'apiKeys.revoke': { example: { input: { id: f.aKey.id } }, input: shaped({ id: fc.constantFrom(f.bKey.id, f.aKey.id, f.aKey.id) }) },
  };
}

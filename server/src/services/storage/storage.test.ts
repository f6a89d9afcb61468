import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { hmacHex, makeUploadThingToken, startFakeUploadThing, type FakeUploadThing } from '../../../test/fakes/uploadthing-server.js';
import {
  BlobStoreError,
  createBlobStore,
  createLocalBlobStore,
  createUploadThingBlobStore,
  customIdFor,
  InvalidBlobKeyError,
  validateKey,
} from './index.js';

const pdfBytes = () => new Uint8Array(Buffer.from('%PDF-1.7\n' + 'x'.repeat(300_000) + '\n%%EOF\n'));

describe('validateKey', () => {
  it('accepts relative slash paths', () => {
    expect(validateKey('certificates/abc/original.pdf')).toBe('certificates/abc/original.pdf');
  });
  it.each([
    ['../etc/passwd'],
    ['a/../../b'],
    ['/etc/passwd'],
    ['C:/windows'],
    ['a\\b'],
    ['a\0b'],
    [''],
    ['a//b'],
    ['./a'],
    ['a/'],
    ['x'.repeat(513)],
  ])('refuses %j', (key) => {
    expect(() => validateKey(key)).toThrow(InvalidBlobKeyError);
  });
});

describe('local blob store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'attesta-blobs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips bytes, overwrites, deletes, and builds public urls', async () => {
    const store = createLocalBlobStore({ dir, publicBaseUrl: 'http://localhost:3000/' });
    const bytes = pdfBytes();
    const put = await store.put('certificates/c1/original file.pdf', bytes, 'application/pdf');
    expect(put).toEqual({ key: 'certificates/c1/original file.pdf', url: 'http://localhost:3000/files/certificates/c1/original%20file.pdf' });
    expect(await store.exists('certificates/c1/original file.pdf')).toBe(true);
    expect(Buffer.from((await store.get('certificates/c1/original file.pdf'))!).equals(Buffer.from(bytes))).toBe(true);
    await store.put('certificates/c1/original file.pdf', new Uint8Array([1, 2, 3]), 'application/pdf');
    expect(await store.get('certificates/c1/original file.pdf')).toEqual(new Uint8Array([1, 2, 3]));
    // no temp files left behind by the atomic writes
    expect(await readdir(join(dir, 'certificates', 'c1'))).toEqual(['original file.pdf']);
    await store.delete('certificates/c1/original file.pdf');
    expect(await store.exists('certificates/c1/original file.pdf')).toBe(false);
    expect(await store.get('certificates/c1/original file.pdf')).toBeNull();
    await store.delete('certificates/c1/original file.pdf'); // deleting twice is fine
  });

  it('returns null for missing keys and for directories', async () => {
    const store = createLocalBlobStore({ dir, publicBaseUrl: 'http://x' });
    expect(await store.get('nope.pdf')).toBeNull();
    await store.put('a/b.pdf', new Uint8Array([1]), 'application/pdf');
    expect(await store.get('a')).toBeNull();
    expect(await store.exists('a')).toBe(false);
  });

  it('refuses traversal on every operation, touching nothing outside dir', async () => {
    const store = createLocalBlobStore({ dir: join(dir, 'inner'), publicBaseUrl: 'http://x' });
    await expect(store.put('../escape.pdf', new Uint8Array([1]), 'application/pdf')).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.get('../../etc/passwd')).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.delete('/etc/passwd')).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.exists('a\\..\\b')).rejects.toThrow(InvalidBlobKeyError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('survives concurrent writes to the same key with one complete version', async () => {
    const store = createLocalBlobStore({ dir, publicBaseUrl: 'http://x' });
    const a = new Uint8Array(200_000).fill(1);
    const b = new Uint8Array(200_000).fill(2);
    await Promise.all([store.put('k.bin', a, 'x'), store.put('k.bin', b, 'x'), store.put('k.bin', a, 'x')]);
    const got = (await store.get('k.bin'))!;
    expect(got.length).toBe(200_000);
    expect(got.every((v) => v === got[0])).toBe(true);
  });
});

describe('UploadThing blob store against the fake UploadThing server', () => {
  let fake: FakeUploadThing;
  beforeAll(async () => {
    fake = await startFakeUploadThing();
  });
  afterAll(async () => {
    await fake.close();
  });
  const store = () => createUploadThingBlobStore({ token: fake.token, apiUrl: fake.url, ingestUrl: fake.url, fileUrlBase: fake.url });

  it('uploads, lists, reads back identical bytes, deletes, and is gone', async () => {
    const s = store();
    const bytes = pdfBytes();
    const key = 'certificates/c1/original.pdf';
    const put = await s.put(key, bytes, 'application/pdf');
    expect(put.key).toBe(key);
    expect(put.url).toMatch(new RegExp(`^${fake.url}/f/`));

    const listed = await (await s.utapi()).listFiles();
    expect(listed.files).toHaveLength(1);
    expect(listed.files[0]).toMatchObject({ customId: customIdFor(key), name: 'certificates_c1_original.pdf', size: bytes.length, status: 'Uploaded' });

    expect(await s.exists(key)).toBe(true);
    const got = await s.get(key);
    expect(got).not.toBeNull();
    expect(Buffer.from(got!).equals(Buffer.from(bytes))).toBe(true);
    // the url put() returned serves the same bytes
    expect(Buffer.from(await (await fetch(put.url)).arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    await s.delete(key);
    expect(await s.exists(key)).toBe(false);
    expect(await s.get(key)).toBeNull();
    expect((await (await s.utapi()).listFiles()).files).toHaveLength(0);
  });

  it('replaces a key on a second put (one file, new bytes)', async () => {
    const s = store();
    await s.put('photos/u1.png', new Uint8Array([1, 2, 3]), 'image/png');
    await s.put('photos/u1.png', new Uint8Array([4, 5]), 'image/png');
    expect(await s.get('photos/u1.png')).toEqual(new Uint8Array([4, 5]));
    expect((await (await s.utapi()).listFiles()).files.filter((f) => f.customId === customIdFor('photos/u1.png'))).toHaveLength(1);
    await s.delete('photos/u1.png');
  });

  it('the fake refuses a tampered presigned URL (so the signature really is checked)', async () => {
    let captured = '';
    const tampering: typeof fetch = async (input, init) => {
      const req = input instanceof Request ? input : new Request(input, init);
      if (req.method === 'PUT') {
        captured = req.url;
        // pretend the file is called something else: the signature no longer matches
        const forged = req.url.replace(/x-ut-file-name=[^&]+/, 'x-ut-file-name=forged.pdf');
        return fetch(new Request(forged, req));
      }
      return fetch(req);
    };
    const s = createUploadThingBlobStore({ token: fake.token, apiUrl: fake.url, ingestUrl: fake.url, fileUrlBase: fake.url, fetch: tampering, logLevel: 'None' });
    await expect(s.put('certificates/forged.pdf', new Uint8Array([1, 2, 3]), 'application/pdf')).rejects.toThrow(BlobStoreError);
    expect(captured).toContain('signature=hmac-sha256');
    expect(fake.log.at(-1)).toMatchObject({ method: 'PUT', status: 403, reason: 'invalid signature' });
    expect(await s.exists('certificates/forged.pdf')).toBe(false);
  });

  it('the fake accepts a URL signed with the app secret and refuses one signed with another', async () => {
    const sign = (secret: string) => {
      const u = new URL(`${fake.url}/manualkey1`);
      u.searchParams.append('expires', String(Date.now() + 60_000));
      u.searchParams.append('x-ut-identifier', fake.appId);
      u.searchParams.append('x-ut-file-name', 'a.txt');
      u.searchParams.append('x-ut-file-size', '2');
      u.searchParams.append('x-ut-file-type', 'text/plain');
      return `${u.href}&signature=${encodeURIComponent('hmac-sha256=' + hmacHex(secret, u.href))}`;
    };
    const body = () => {
      const fd = new FormData();
      fd.append('file', new Blob(['hi'], { type: 'text/plain' }), 'a.txt');
      return fd;
    };
    expect((await fetch(sign('sk_wrong_secret'), { method: 'PUT', body: body() })).status).toBe(403);
    const ok = await fetch(sign(fake.apiKey), { method: 'PUT', body: body() });
    expect(ok.status).toBe(200);
    expect(fake.files.get('manualkey1')?.size).toBe(2);
    fake.files.delete('manualkey1');
  });

  it('reports a wrong API key as a clear BlobStoreError', async () => {
    const s = createUploadThingBlobStore({ token: makeUploadThingToken('sk_not_the_key', fake.appId), apiUrl: fake.url, ingestUrl: fake.url, fileUrlBase: fake.url, logLevel: 'None' });
    await expect(s.delete('x.pdf')).rejects.toThrow(/UploadThing delete failed.*UPLOADTHING_TOKEN/);
  });

  it('refuses a malformed token up front', () => {
    expect(() => createUploadThingBlobStore({ token: 'not-a-token' })).toThrow(/UPLOADTHING_TOKEN is not a valid UploadThing token/);
  });

  it('reads UPLOADTHING_* from the environment', () => {
    expect(loadConfig({}).storage.uploadthingToken).toBeUndefined();
    expect(loadConfig({ UPLOADTHING_TOKEN: 't', UPLOADTHING_API_URL: 'http://a', UPLOADTHING_INGEST_URL: 'http://i' }).storage).toMatchObject({
      uploadthingToken: 't',
      uploadthingApiUrl: 'http://a',
      uploadthingIngestUrl: 'http://i',
    });
  });

  it('createBlobStore picks UploadThing when a token is configured, local otherwise', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'attesta-blobs-'));
    try {
      const local = createBlobStore({ dataDir: dir, publicBaseUrl: 'http://localhost:3000' });
      expect(local.kind).toBe('local');
      expect((await local.put('a.pdf', new Uint8Array([1]), 'application/pdf')).url).toBe('http://localhost:3000/files/a.pdf');
      expect(await readdir(join(dir, 'uploads'))).toEqual(['a.pdf']);

      const ut = createBlobStore({ dataDir: dir, publicBaseUrl: 'http://x', uploadthingToken: fake.token, uploadthingApiUrl: fake.url, uploadthingIngestUrl: fake.url, uploadthingFileUrlBase: fake.url });
      expect(ut.kind).toBe('uploadthing');
      await ut.put('b.pdf', new Uint8Array([9]), 'application/pdf');
      expect(await ut.get('b.pdf')).toEqual(new Uint8Array([9]));
      await ut.delete('b.pdf');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

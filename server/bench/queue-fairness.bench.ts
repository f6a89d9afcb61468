// npx tsx server/bench/queue-fairness.bench.ts [--runs 3]
// The queue delay another holder sees while one holder's burst is verified: holder A adds 12
// random-noise images (no text layer: each goes through OCR, the slow path), then holder B adds one
// certificate — a text PDF, and in a second scenario an image (OCR too). Reports, per run: B's queue
// delay (its job queued → claimed by the worker), B's create → verdict time (request sent → job
// finished), how many of A's jobs were claimed before B's, and how long A's burst took. One server per scenario and run (in this
// process, worker on, embedded defaults); DATABASE_URL in the environment runs it on PostgreSQL.
import fs from 'node:fs';
import sharp from 'sharp';
import { certForm, makeClient, makePdf, signIn, startTestServer, tmpDataDir, waitFor } from '../test/helpers';
import { median } from './report';

const BURST = 12;
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 3);
const claims = { title: 'Certificate of Completion', institution_name: 'Fairness Institute', program_name: 'Queueing', issue_date: '2025-03-01' };

/** Random RGB noise: no text for OCR to find, so each one costs a full recognition. */
async function noisePng(width = 1000, height = 700): Promise<Uint8Array> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (Math.random() * 256) | 0;
  return new Uint8Array(await sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer());
}

interface Run {
  scenario: string;
  queueDelayMs: number;
  createToVerdictMs: number;
  aClaimedBeforeB: number;
  aBurstMs: number;
  bStatus: string;
}

async function once(scenario: 'text PDF' | 'image (OCR)'): Promise<Run> {
  const dir = tmpDataDir();
  const database: Record<string, string> = process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {};
  const server = await startTestServer(dir, { ATTESTA_WORKER: 'true', ...database });
  // Every claim, in order, with the time it happened (the worker calls queue.claim).
  const claimed: { certificateId: string; at: number }[] = [];
  const queue = server.services.queue;
  const claim = queue.claim.bind(queue);
  queue.claim = (async (...args: Parameters<typeof claim>) => {
    const job = await claim(...args);
    if (job) claimed.push({ certificateId: job.certificate_id, at: Date.now() });
    return job;
  }) as typeof queue.claim;
  try {
    const a = makeClient(server.url);
    const b = makeClient(server.url);
    await signIn(a);
    await signIn(b);
    const images = await Promise.all(Array.from({ length: BURST }, () => noisePng()));
    const bFile =
      scenario === 'text PDF'
        ? { bytes: await makePdf([claims.institution_name, claims.title, claims.program_name]), name: 'b.pdf', type: 'application/pdf' }
        : { bytes: await noisePng(), name: 'b.png', type: 'image/png' };

    const aStart = Date.now();
    const aIds = await Promise.all(images.map(async (bytes, i) => (await a.client.certificate.create.mutate(certForm(claims, { bytes, name: `a${i}.png`, type: 'image/png' }))).id));
    const bSent = Date.now();
    const bCreated = await b.client.certificate.create.mutate(certForm(claims, bFile));
    // B's verdict: its job finished (a noise image stays pending, "content not checked").
    const bDone = await waitFor(async () => {
      const job = await server.services.db.selectFrom('verification_job').select('status').where('certificate_id', '=', bCreated.id).where('status', 'in', ['done', 'failed']).executeTakeFirst();
      if (!job) return null;
      const at = Date.now();
      return { status: (await b.client.certificate.byId.query({ id: bCreated.id })).verification_status, at };
    }, 600_000, 20);
    await waitFor(async () => {
      const left = await server.services.db.selectFrom('verification_job').select('id').where('status', 'in', ['queued', 'running']).executeTakeFirst();
      return !left;
    }, 600_000, 50);
    const aEnd = Date.now();
    const bClaim = claimed.find((c) => c.certificateId === bCreated.id);
    if (!bClaim) throw new Error("B's job was never claimed");
    const before = claimed.slice(0, claimed.indexOf(bClaim)).filter((c) => aIds.includes(c.certificateId)).length;
    const bJob = await server.services.db.selectFrom('verification_job').select('created_at').where('certificate_id', '=', bCreated.id).orderBy('created_at').executeTakeFirstOrThrow();
    return { scenario, queueDelayMs: bClaim.at - Date.parse(bJob.created_at), createToVerdictMs: bDone.at - bSent, aClaimedBeforeB: before, aBurstMs: aEnd - aStart, bStatus: bDone.status };
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const results: Run[] = [];
for (const scenario of ['text PDF', 'image (OCR)'] as const) {
  for (let i = 0; i < runs; i++) {
    const r = await once(scenario);
    results.push(r);
    console.log(JSON.stringify(r));
  }
}
for (const scenario of ['text PDF', 'image (OCR)']) {
  const rs = results.filter((r) => r.scenario === scenario);
  console.log(
    `B adds a ${scenario} after A's ${BURST} noise images: queue delay median ${median(rs.map((r) => r.queueDelayMs))} ms (max ${Math.max(...rs.map((r) => r.queueDelayMs))}), ` +
      `create → verdict median ${median(rs.map((r) => r.createToVerdictMs))} ms (max ${Math.max(...rs.map((r) => r.createToVerdictMs))}), ` +
      `A's jobs claimed before B's: ${rs.map((r) => r.aClaimedBeforeB).join(', ')}; A's burst took ${rs.map((r) => r.aBurstMs).join(', ')} ms`,
  );
}
process.exit(0);

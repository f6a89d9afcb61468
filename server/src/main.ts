import v8 from 'node:v8';
import { ConfigError, loadConfig } from './config';
import { startServer } from './app';
import { redactUrl } from './db';

// The old generation grows to live size × 1.5 before a full collection, instead of V8's own factor
// (up to ×4 when collections are cheap). Under load every scavenge promotes the objects of the
// requests in flight, which die soon after; with V8's factor that garbage took the resident memory
// from ~250 MB to 400–600 MB before the next full collection (bench:scale, 10,000 certificates), with
// ×1.5 to ~330 MB, at no measured cost in requests per second. A heap-growing flag given to Node wins.
if (![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('heap-growing-percent'))) v8.setFlagsFromString('--heap-growing-percent=50');

try {
  const config = loadConfig();
  const server = await startServer(config);
  const database = config.database.kind === 'postgres' ? `postgres ${redactUrl(config.database.url)}` : 'sqlite';
  console.log(`Attesta listening on ${server.url} (chain: ${server.services.chain.mode}, database: ${database}, data: ${config.dataDir}; started in ${Math.round(process.uptime() * 1000)} ms)`);
  const shutdown = async (signal: string) => {
    console.log(`${signal}: shutting down`);
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}

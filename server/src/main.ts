import { ConfigError, loadConfig } from './config';
import { startServer } from './app';
import { redactUrl } from './db';

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

import type { Services } from '../index';
import { settleActions } from '../wallet-tx/actions';
import { ALL_WALLET_FLOWS } from './flows';
import { recheckDomains } from './profile';

// The institutions' work beside requests: at start, wallet actions a crash left half-done are finished
// from the chain (or closed); then, periodically, the same repair and the domain proofs' re-check.

export async function startInstitutionWork(svc: Services) {
  const settled = await settleActions(svc, ALL_WALLET_FLOWS);
  if (settled.errors.length) console.warn('wallet actions:', settled.errors);
  let running: Promise<unknown> = Promise.resolve();
  const everyMs = Math.min(svc.config.institutions.domainRecheckMs, 3_600_000);
  const timer = setInterval(() => {
    running = running
      .then(async () => {
        await settleActions(svc, ALL_WALLET_FLOWS);
        await recheckDomains(svc, { olderThanMs: svc.config.institutions.domainRecheckMs });
      })
      .catch((e) => console.warn('institutions:', (e as Error).message));
  }, everyMs);
  timer.unref();
  return {
    settled,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

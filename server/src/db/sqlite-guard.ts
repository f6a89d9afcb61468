import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, SqliteDialect, type Driver, type Transaction } from 'kysely';

/**
 * SQLite has one connection, and a transaction holds it until its callback ends: a query through the
 * database handle (not the transaction) awaited inside that callback waits for the connection forever,
 * and with it every request of the server (a confirmation landing on one path froze it so). The
 * callback's async context is marked (under tests: TRANSACTION_GUARD); such a query fails at once, saying what to fix. PostgreSQL has a
 * pool, where the same mistake reads outside the transaction instead (also wrong, never a freeze).
 */
const insideTransaction = new AsyncLocalStorage<{ open: boolean }>();

/**
 * On in tests only (vitest sets NODE_ENV=test, and the servers tests start inherit it), as a debug
 * assertion: an AsyncLocalStorage in use makes Node 20 track every promise (measured: 4,000,000 awaits
 * 0.29 → 0.89 s), a cost on every request the product should not pay. The whole suite runs with it, so
 * the mistake is caught before it ships.
 */
export const TRANSACTION_GUARD = process.env.NODE_ENV === 'test';
export const QUERY_OUTSIDE_TRANSACTION =
  'A query through the database handle inside an open SQLite transaction would wait for its one connection forever: run it through the transaction.';

/** Runs `work` (a write nobody awaits, started from code that may run inside a transaction) as outside it: it waits for the connection instead. */
export const detachedFromTransaction = <R>(work: () => R): R => (TRANSACTION_GUARD ? insideTransaction.exit(work) : work());

export class GuardedSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    driver.acquireConnection = () => (insideTransaction.getStore()?.open ? Promise.reject(new Error(QUERY_OUTSIDE_TRANSACTION)) : acquire());
    return driver;
  }
}

export class GuardedSqliteKysely<T> extends Kysely<T> {
  override transaction() {
    const builder = super.transaction();
    const execute = builder.execute.bind(builder);
    builder.execute = <R>(callback: (trx: Transaction<T>) => Promise<R>) =>
      execute((trx) => {
        const scope = { open: true };
        // Work the callback started and left running (a timer, a listener) is not inside it once it ends.
        return insideTransaction.run(scope, () => callback(trx)).finally(() => (scope.open = false));
      });
    return builder;
  }
}

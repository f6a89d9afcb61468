import { expect } from 'vitest';
import { anchorErrorFromLogs, errorByCode, errorByName } from '../../../shared/program/errors';
import type { TxResult } from './runtime';

const show = (r: TxResult) => `${r.error ?? 'ok'}\n${r.logs.join('\n')}`;

export function expectOk(result: TxResult): void {
  expect(result.ok, `transaction failed:\n${show(result)}`).toBe(true);
}

/**
 * The transaction failed with our program's named error: the custom code in the runtime's result
 * and the AnchorError line in the logs, both matching the IDL entry.
 */
export function expectError(result: TxResult, error: string | number): void {
  const info = typeof error === 'number' ? errorByCode(error) : errorByName(error);
  expect(info, `${error} is not an error in the IDL`).toBeDefined();
  expect(result.ok, `expected ${info!.name} but the transaction succeeded:\n${show(result)}`).toBe(false);
  expect({ code: result.customCode, logged: anchorErrorFromLogs(result.logs) }, show(result)).toEqual({
    code: info!.code,
    logged: { code: info!.code, name: info!.name, msg: info!.msg },
  });
}

/** Failure from another program (e.g. Token-2022), by custom code and its log message. */
export function expectProgramFailure(result: TxResult, code: number, logFragment: string): void {
  expect(result.ok, `expected failure, got success:\n${show(result)}`).toBe(false);
  expect(result.customCode, show(result)).toBe(code);
  expect(result.logs.some((l) => l.includes(logFragment)), show(result)).toBe(true);
}

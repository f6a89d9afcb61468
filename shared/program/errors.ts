import json from './idl/certificates.json';

export interface ProgramErrorInfo {
  code: number;
  name: string;
  msg: string;
}

/** The program's custom errors (codes from 6000), as the IDL lists them. */
export const IDL_ERRORS: readonly ProgramErrorInfo[] = (json as { errors?: ProgramErrorInfo[] }).errors ?? [];

export const errorByCode = (code: number) => IDL_ERRORS.find((e) => e.code === code);
export const errorByName = (name: string) => IDL_ERRORS.find((e) => e.name === name);

/** Reads `Error Code: <Name>. Error Number: <n>` from a failed transaction's logs. */
export function anchorErrorFromLogs(logs: readonly string[]): ProgramErrorInfo | undefined {
  for (const line of logs) {
    const m = /AnchorError occurred\. Error Code: (\w+)\. Error Number: (\d+)\. Error Message: (.*)\.$/.exec(line);
    if (m) return { name: m[1], code: Number(m[2]), msg: m[3] };
  }
  return undefined;
}

// JSON-RPC 2.0 errors as a Solana validator (Agave) reports them: the standard codes plus the
// server codes web3.js and wallets recognise (-32002 preflight, -32003 signature, -32004 block …).

export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  PreflightFailure: -32002,
  SignatureVerificationFailure: -32003,
  BlockNotAvailable: -32004,
  UnsupportedTransactionVersion: -32015,
  MinContextSlotNotReached: -32016,
  /** What Solana's public RPC answers a rate-limited requestAirdrop with (also its HTTP status). */
  TooManyRequests: 429,
} as const;

export class RpcError extends Error {
  constructor(
    public readonly code: number,
    message: string,
    public readonly data?: unknown,
  ) {
    super(message);
  }
}

export const invalidParams = (message: string) => new RpcError(RpcCode.InvalidParams, message);

// LiteSVM exposes its TransactionError / InstructionError enums as numbers (declared const enums,
// absent at runtime); the names are the Rust variants in declaration order, as the validator's JSON.
const TX_ERRORS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee',
  'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee',
  'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance',
  'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit', 'UnsupportedVersion', 'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks', 'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData', 'InvalidAddressLookupTableIndex', 'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit', 'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded', 'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
];
const IX_ERRORS = [
  'GenericError', 'InvalidArgument', 'InvalidInstructionData', 'InvalidAccountData', 'AccountDataTooSmall', 'InsufficientFunds',
  'IncorrectProgramId', 'MissingRequiredSignature', 'AccountAlreadyInitialized', 'UninitializedAccount', 'UnbalancedInstruction',
  'ModifiedProgramId', 'ExternalAccountLamportSpend', 'ExternalAccountDataModified', 'ReadonlyLamportChange', 'ReadonlyDataModified',
  'DuplicateAccountIndex', 'ExecutableModified', 'RentEpochModified', 'NotEnoughAccountKeys', 'AccountDataSizeChanged',
  'AccountNotExecutable', 'AccountBorrowFailed', 'AccountBorrowOutstanding', 'DuplicateAccountOutOfSync', 'InvalidError',
  'ExecutableDataModified', 'ExecutableLamportChange', 'ExecutableAccountNotRentExempt', 'UnsupportedProgramId', 'CallDepth',
  'MissingAccount', 'ReentrancyNotAllowed', 'MaxSeedLengthExceeded', 'InvalidSeeds', 'InvalidRealloc', 'ComputationalBudgetExceeded',
  'PrivilegeEscalation', 'ProgramEnvironmentSetupFailure', 'ProgramFailedToComplete', 'ProgramFailedToCompile', 'Immutable',
  'IncorrectAuthority', 'AccountNotRentExempt', 'InvalidAccountOwner', 'ArithmeticOverflow', 'UnsupportedSysvar', 'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded', 'MaxAccountsExceeded', 'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits', 'BorshIoError',
];

// The Display text of the commonest variants (solana-transaction-error / solana-instruction).
const TX_TEXT: Record<string, string> = {
  AccountInUse: 'Account in use',
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  MissingSignatureForFee: 'Transaction requires a fee but has no signature present',
  InvalidAccountIndex: 'Transaction contains an invalid account reference',
  SignatureFailure: 'Transaction did not pass signature verification',
  InvalidProgramForExecution: 'This program may not be used for executing instructions',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
};
const IX_TEXT: Record<string, string> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  AccountDataTooSmall: 'account data too small for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  NotEnoughAccountKeys: 'insufficient account keys for instruction',
  ComputationalBudgetExceeded: 'Computational budget exceeded',
  PrivilegeEscalation: 'Cross-program invocation with unauthorized signer or writable account',
  InvalidAccountOwner: 'Invalid account owner',
  ArithmeticOverflow: 'Program arithmetic overflowed',
};

/** A LiteSVM transaction error → the validator's JSON `TransactionError` and its Display text. */
export function transactionError(err: unknown): { json: unknown; text: string } {
  if (typeof err === 'number') {
    const name = TX_ERRORS[err] ?? `Unknown(${err})`;
    return { json: name, text: TX_TEXT[name] ?? name };
  }
  const e = err as { index?: number; accountIndex?: number; err?: () => unknown; constructor?: { name?: string } };
  const kind = e?.constructor?.name ?? '';
  if (kind.includes('InstructionError') && typeof e.err === 'function') {
    const inner = e.err() as number | { code?: number; msg?: string };
    let json: unknown;
    let text: string;
    if (typeof inner === 'number') {
      json = IX_ERRORS[inner] ?? `Unknown(${inner})`;
      text = IX_TEXT[json as string] ?? (json as string);
    } else if (inner && typeof inner.code === 'number') {
      json = { Custom: inner.code };
      text = `custom program error: 0x${inner.code.toString(16)}`;
    } else {
      json = { BorshIoError: inner?.msg ?? '' };
      text = `Failed to serialize or deserialize account data: ${inner?.msg ?? ''}`;
    }
    return { json: { InstructionError: [e.index ?? 0, json] }, text: `Error processing Instruction ${e.index ?? 0}: ${text}` };
  }
  if (kind.includes('DuplicateInstruction')) return { json: { DuplicateInstruction: e.index }, text: `Transaction contains a duplicate instruction (${e.index}) that is not allowed` };
  if (kind.includes('InsufficientFundsForRent')) return { json: { InsufficientFundsForRent: { account_index: e.accountIndex } }, text: `Transaction results in an account (${e.accountIndex}) with insufficient funds for rent` };
  if (kind.includes('ProgramExecutionTemporarilyRestricted'))
    return { json: { ProgramExecutionTemporarilyRestricted: { account_index: e.accountIndex } }, text: `Execution of the program referenced by account at index ${e.accountIndex} is temporarily restricted.` };
  return { json: String(err), text: String(err) };
}

// Syscalls the SBPF v0 loaders register (rbpf 0.8 in solana-bankrun / agave 1.18, solana-sbpf 0.23
// in litesvm / agave 4.x). The loader hashes each name (murmur3) and rejects names it does not
// know; checking here turns that late "unresolved symbol" load failure into a build error.

/** Available in both runtimes the project tests against. */
export const SYSCALLS = new Set([
  'abort',
  'sol_panic_',
  'sol_log_',
  'sol_log_64_',
  'sol_log_compute_units_',
  'sol_log_pubkey',
  'sol_log_data',
  'sol_create_program_address',
  'sol_try_find_program_address',
  'sol_sha256',
  'sol_keccak256',
  'sol_blake3',
  'sol_secp256k1_recover',
  'sol_curve_validate_point',
  'sol_curve_group_op',
  'sol_curve_multiscalar_mul',
  'sol_get_clock_sysvar',
  'sol_get_epoch_schedule_sysvar',
  'sol_get_rent_sysvar',
  'sol_get_last_restart_slot',
  'sol_get_epoch_rewards_sysvar',
  'sol_memcpy_',
  'sol_memmove_',
  'sol_memcmp_',
  'sol_memset_',
  'sol_invoke_signed_c',
  'sol_invoke_signed_rust',
  'sol_set_return_data',
  'sol_get_return_data',
  'sol_get_processed_sibling_instruction',
  'sol_get_stack_height',
  'sol_remaining_compute_units',
  'sol_poseidon',
  'sol_alt_bn128_group_op',
  'sol_alt_bn128_compression',
  'sol_big_mod_exp',
]);

/** Newer syscalls: litesvm runs them, bankrun (agave 1.18) refuses to load a program using them. */
export const NEWER_SYSCALLS = new Set(['sol_get_sysvar', 'sol_get_epoch_stake']);

/** Undefined symbols that are renamed to a syscall: llvm.trap lowers to a call to `__bpf_trap`. */
export const SYSCALL_ALIASES = new Map([['__bpf_trap', 'abort']]);

/**
 * Advice for an undefined symbol that is not a syscall, keyed by the usual culprits.
 * @param {string} name
 */
export function unknownSymbolHint(name) {
  if (/^__(mul|div|udiv|mod|umod)ti3$|^__multi3$|^__(ash|lsh)[lr]ti3$/.test(name)) {
    return 'it is a 128-bit integer helper: avoid u128/i128 arithmetic (use u64 and checked_* ops)';
  }
  if (/^__(div|mod)di3$/.test(name)) {
    return 'it is a signed 64-bit division helper: use unsigned division (u64 / and %)';
  }
  if (/^__\w+[sdt]f\d?$|^__(add|sub|mul|div|fix|float|cmp|eq|ne|lt|le|gt|ge|unord)\w*[sdt]f/.test(name)) {
    return 'it is a floating-point helper: SBPF has no floats, use integer maths';
  }
  if (/^(memcpy|memmove|memset|memcmp|bcmp)$/.test(name)) {
    return `it is a C library call the IR fix-ups did not rewrite: call sol_${name === 'bcmp' ? 'memcmp' : name}_ directly`;
  }
  if (name === 'sol_alloc_free_') {
    return 'sol_alloc_free_ can no longer be deployed: use a bump #[global_allocator] over the heap at 0x3_0000_0000';
  }
  if (NEWER_SYSCALLS.has(name)) {
    return 'this syscall exists only in newer runtimes (solana-bankrun 0.4 cannot load it)';
  }
  return 'declare only Solana syscalls in `extern "C"` blocks (see programs/toolchain/syscalls.mjs) and do not depend on C libraries';
}

import { describe, expect, it } from 'vitest';
import {
  applyFixups, dropOptnone, dropSret, ensureDeclared, markWideFunctions, rewriteMemIntrinsics,
  rewriteUmulOverflow, splitTopLevel, INLINE_MEM_LIMIT,
} from './ir-fixups.mjs';

describe('splitTopLevel', () => {
  it('splits on top-level commas only', () => {
    expect(splitTopLevel('ptr %a, i64 range(i64 0, 5) %n, { i64, i1 } %x, i1 false')).toEqual([
      'ptr %a', 'i64 range(i64 0, 5) %n', '{ i64, i1 } %x', 'i1 false',
    ]);
  });
  it('keeps commas inside quoted strings', () => {
    expect(splitTopLevel('ptr "a,b", i8 1')).toEqual(['ptr "a,b"', 'i8 1']);
  });
});

describe('rewriteMemIntrinsics', () => {
  const memcpy = (len: string) =>
    `  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 %d, ptr nonnull readonly align 1 %s, ${len}, i1 false), !noalias !7`;

  it('leaves small constant copies to the backend', () => {
    const ir = memcpy(`i64 ${INLINE_MEM_LIMIT}`);
    expect(rewriteMemIntrinsics(ir)).toEqual({ ir, rewritten: 0 });
  });

  it('turns a large constant memcpy into sol_memmove_ and declares it', () => {
    const { ir, rewritten } = rewriteMemIntrinsics(memcpy('i64 65'));
    expect(rewritten).toBe(1);
    expect(ir).toContain(
      '  call void @sol_memmove_(ptr noundef nonnull align 1 %d, ptr nonnull readonly align 1 %s, i64 65), !noalias !7',
    );
    expect(ir).toContain('declare void @sol_memmove_(ptr, ptr, i64)');
    expect(ir).not.toContain('@llvm.memcpy');
  });

  it('rewrites a non-constant length carrying a range attribute (commas inside)', () => {
    const { ir } = rewriteMemIntrinsics(
      '  tail call void @llvm.memmove.p0.p0.i64(ptr %d, ptr %s, i64 range(i64 0, -9223372036854775808) %46, i1 false)',
    );
    expect(ir).toContain('call void @sol_memmove_(ptr %d, ptr %s, i64 range(i64 0, -9223372036854775808) %46)');
  });

  it('widens the memset byte to a 64-bit register', () => {
    const { ir } = rewriteMemIntrinsics('  call void @llvm.memset.p0.i64(ptr align 8 %p, i8 %v, i64 %n, i1 false)');
    expect(ir).toMatch(/ {2}%sol\.memset\.byte\.0 = zext i8 %v to i64\n {2}call void @sol_memset_\(ptr align 8 %p, i64 %sol\.memset\.byte\.0, i64 %n\)/);
    expect(ir).toContain('declare void @sol_memset_(ptr, i64, i64)');
  });

  it('reuses an existing declaration of the syscall', () => {
    const src = `declare void @sol_memmove_(ptr noundef, ptr noundef, i64 noundef)\n${memcpy('i64 %n')}`;
    const { ir } = rewriteMemIntrinsics(src);
    expect(ir.match(/declare void @sol_memmove_/g)).toHaveLength(1);
  });

  it('rejects a call shape it does not understand instead of miscompiling', () => {
    expect(() => rewriteMemIntrinsics('  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s)')).toThrow(/unexpected memcpy call/);
  });
});

describe('rewriteUmulOverflow', () => {
  const src = [
    '  %r = tail call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %a, i64 24)',
    '  %p = extractvalue { i64, i1 } %r, 0',
    '  %o = extractvalue { i64, i1 } %r, 1',
    'declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)',
  ].join('\n');

  it('replaces the intrinsic with mul + udiv check, keeping the aggregate value', () => {
    const { ir, rewritten } = rewriteUmulOverflow(src);
    expect(rewritten).toBe(1);
    expect(ir).toContain('%sol.umul.r.p = mul i64 %a, 24');
    expect(ir).toContain('%sol.umul.r.q = udiv i64 %sol.umul.r.p, %sol.umul.r.d');
    expect(ir).toContain('%sol.umul.r.d = select i1 %sol.umul.r.nz, i64 %a, i64 1');
    expect(ir).toContain('%r = insertvalue { i64, i1 } %sol.umul.r.agg, i1 %sol.umul.r.of, 1');
    expect(ir).toContain('%p = extractvalue { i64, i1 } %r, 0');
    expect(ir).not.toMatch(/call .*umul/);
  });

  it('refuses an unrecognised use rather than leaving a __multi3 libcall', () => {
    expect(() => rewriteUmulOverflow('  store ptr @llvm.umul.with.overflow.i64(i64 1, i64 2), ptr %x')).toThrow(
      /cannot rewrite umul/,
    );
  });
});

describe('dropSret / dropOptnone / ensureDeclared', () => {
  it('removes sret attributes with nested types', () => {
    const { ir, rewritten } = dropSret(
      'define internal void @f(ptr sret({ [2 x i64], i8 }) align 8 %0) {\n  call void @f(ptr sret([4 x i8]) %x)\n}',
    );
    expect(rewritten).toBe(2);
    expect(ir).toBe('define internal void @f(ptr align 8 %0) {\n  call void @f(ptr %x)\n}');
  });

  it('removes optnone and its companion noinline from attribute groups only', () => {
    const ir = 'attributes #0 = { noinline optnone nounwind }\nattributes #1 = { noinline }\n; optnone';
    expect(dropOptnone(ir)).toBe('attributes #0 = { nounwind }\nattributes #1 = { noinline }\n; optnone');
  });

  it('does not duplicate a defined function', () => {
    const ir = 'define void @sol_memset_(ptr %a) {\n}';
    expect(ensureDeclared(ir, 'sol_memset_', 'declare void @sol_memset_(ptr, i64, i64)')).toBe(ir);
  });
});

describe('applyFixups', () => {
  it('applies every rewrite and reports counts', () => {
    const ir = [
      'define void @g(ptr sret([9 x i64]) %o, ptr %s, i64 %n, i64 %a) {',
      '  call void @llvm.memcpy.p0.p0.i64(ptr %o, ptr %s, i64 %n, i1 false)',
      '  %m = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %a, i64 %n)',
      '  ret void',
      '}',
    ].join('\n');
    const { stats } = applyFixups(ir);
    expect(stats).toEqual({ memIntrinsics: 1, umulOverflow: 1, sret: 1 });
  });
});

describe('markWideFunctions', () => {
  const ir = [
    'define internal void @six(ptr sret([2 x i64]) %0, i64 %a, i64 %b, ptr %c, i64 %d, ptr %e) unnamed_addr #0 {',
    'define internal void @five(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e) #0 {',
    'define internal void @"quoted name"(i64, i64, i64, i64, i64, { i64, i64 } %p) #0 !dbg !4 {',
    'define internal void @never(i64, i64, i64, i64, i64, i64) #1 {',
    'define i64 @entrypoint(i64, i64, i64, i64, i64, i64) #0 {',
    'attributes #0 = { nounwind }',
    'attributes #1 = { cold noinline nounwind }',
  ].join('\n');

  it('marks functions with more than 5 parameters alwaysinline, before their attribute group', () => {
    const r = markWideFunctions(ir, ['entrypoint']);
    expect(r.marked).toEqual(['six', 'quoted name']);
    expect(r.ir).toContain('%e) unnamed_addr alwaysinline #0 {');
    expect(r.ir).toContain('{ i64, i64 } %p) alwaysinline #0 !dbg !4 {');
    expect(r.ir).toContain('define internal void @five(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e) #0 {');
    expect(r.ir).toContain('define i64 @entrypoint(i64, i64, i64, i64, i64, i64) #0 {');
  });

  it('reports noinline functions it cannot fix', () => {
    expect(markWideFunctions(ir, ['entrypoint']).blocked).toEqual(['never']);
  });
});

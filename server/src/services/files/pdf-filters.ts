// The PDF stream filters decoded in JavaScript — ASCIIHex, ASCII85, LZW and RunLength — each bounded
// by a byte cap and, when the output is not needed by a next filter, only counted (./pdf-streams.ts).

export interface Decoded {
  length: number;
  /** The output, when kept for a next filter. */
  bytes?: Uint8Array;
}

/** The filters decoded in JavaScript (all bounded by `cap`; only counted when not kept). */
export function decodeInJs(f: 'hex' | 'a85' | 'lzw' | 'rl', data: Uint8Array, cap: number, keep: boolean): Decoded {
  const out = new Sink(cap, keep);
  if (f === 'hex') hexDecode(data, out);
  else if (f === 'a85') a85Decode(data, out);
  else if (f === 'lzw') lzwDecode(data, out);
  else runLengthDecode(data, out);
  return out.result();
}

/** Collects (or only counts) decoded bytes; `full` once past the cap. */
class Sink {
  length = 0;
  private parts: Uint8Array[] = [];
  private pending: number[] = [];
  constructor(
    private readonly cap: number,
    readonly keep: boolean,
  ) {}
  get full() {
    return this.length > this.cap;
  }
  byte(b: number) {
    this.length++;
    if (this.keep) {
      this.pending.push(b);
      if (this.pending.length >= 64 * 1024) this.flush();
    }
  }
  bytes(b: Uint8Array) {
    this.length += b.length;
    if (this.keep) {
      this.flush();
      this.parts.push(b);
    }
  }
  /** `count` bytes whose values do not matter (counting only). */
  skip(count: number, value: number) {
    if (!this.keep) this.length += count;
    else for (let i = 0; i < count && !this.full; i++) this.byte(value);
  }
  private flush() {
    if (this.pending.length) this.parts.push(Uint8Array.from(this.pending));
    this.pending = [];
  }
  result(): Decoded {
    this.flush();
    return { length: this.length, bytes: this.keep ? new Uint8Array(Buffer.concat(this.parts)) : undefined };
  }
}

function hexDecode(data: Uint8Array, out: Sink) {
  let high = -1;
  for (let i = 0; i < data.length && !out.full; i++) {
    const c = data[i];
    if (c === 0x3e) break; // '>'
    const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out.byte((high << 4) | v);
      high = -1;
    }
  }
  if (high >= 0 && !out.full) out.byte(high << 4);
}

function a85Decode(data: Uint8Array, out: Sink) {
  const group: number[] = [];
  for (let i = 0; i < data.length && !out.full; i++) {
    const c = data[i];
    if (c === 0x7e) break; // '~>'
    if (c === 0x7a && group.length === 0) {
      out.skip(4, 0); // 'z': four zero bytes
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    group.push(c - 0x21);
    if (group.length === 5) {
      const v = group.reduce((n, d) => n * 85 + d, 0);
      for (let k = 3; k >= 0; k--) out.byte(Math.floor(v / 256 ** k) & 0xff);
      group.length = 0;
    }
  }
  if (group.length > 1 && !out.full) {
    const n = group.length;
    while (group.length < 5) group.push(84);
    const v = group.reduce((acc, d) => acc * 85 + d, 0);
    for (let k = 3; k > 4 - n; k--) out.byte(Math.floor(v / 256 ** k) & 0xff);
  }
}

function runLengthDecode(data: Uint8Array, out: Sink) {
  for (let i = 0; i < data.length && !out.full; ) {
    const n = data[i++];
    if (n === 128) break;
    if (n < 128) {
      out.bytes(data.subarray(i, i + n + 1));
      i += n + 1;
    } else {
      out.skip(257 - n, data[i] ?? 0);
      i++;
    }
  }
}

/** PDF LZW (early change 1, the default): variable codes of 9–12 bits, 256 clear, 257 end. */
function lzwDecode(data: Uint8Array, out: Sink) {
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  const scratch = new Uint8Array(4097);
  /** Writes the string of `code` (plus `extra` when ≥ 0: the KwKwK case). */
  const emit = (code: number, extra: number) => {
    const n = length[code];
    if (!out.keep) return out.skip(n + (extra >= 0 ? 1 : 0), 0);
    for (let c = code, k = n - 1; k >= 0; k--, c = prefix[c]) scratch[k] = suffix[c];
    if (extra >= 0) scratch[n] = extra;
    out.bytes(scratch.slice(0, extra >= 0 ? n + 1 : n));
  };
  let next = 258;
  let bits = 9;
  let prev = -1;
  let acc = 0;
  let accBits = 0;
  for (let i = 0; i < data.length && !out.full; i++) {
    acc = ((acc << 8) | data[i]) >>> 0;
    accBits += 8;
    while (accBits >= bits && !out.full) {
      const code = (acc >>> (accBits - bits)) & ((1 << bits) - 1);
      accBits -= bits;
      acc &= (1 << accBits) - 1;
      if (code === 256) {
        next = 258;
        bits = 9;
        prev = -1;
        continue;
      }
      if (code === 257) return;
      let head: number;
      if (code < next) {
        emit(code, -1);
        head = first[code];
      } else if (code === next && prev >= 0) {
        head = first[prev]; // KwKwK: the previous string plus its own first byte
        emit(prev, head);
      } else return; // damaged
      if (prev >= 0 && next < 4096) {
        prefix[next] = prev;
        suffix[next] = head;
        first[next] = first[prev];
        length[next] = length[prev] + 1;
        next++;
      }
      prev = code;
      if (next + 1 >= 1 << bits && bits < 12) bits++;
    }
  }
}

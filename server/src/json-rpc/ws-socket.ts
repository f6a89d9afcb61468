import { createHash } from 'node:crypto';
import type { Duplex } from 'node:stream';

// A minimal RFC 6455 WebSocket over a raw upgraded socket: text frames, fragmentation, ping/pong,
// close; no extensions (the JSON-RPC PubSub in ./websocket.ts needs no more, and no dependency).

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_MESSAGE = 1024 * 1024;

/** The Sec-WebSocket-Accept answer to a handshake's Sec-WebSocket-Key. */
export const acceptKey = (key: string) => createHash('sha1').update(key + GUID).digest('base64');

export class Socket {
  private buf = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closed = false;
  /** Heartbeat rounds since the client last sent anything (a pong, a request): reset by every read. */
  private silentRounds = 0;
  constructor(
    private readonly sock: Duplex,
    private readonly onText: (text: string) => void,
    private readonly onClose: () => void,
  ) {
    sock.on('data', (d: Buffer) => this.read(d));
    sock.on('close', () => this.finish());
    sock.on('error', () => this.finish());
    // The HTTP server's sockets allow half-open connections: a client that goes away without a close
    // frame only ends its side, and 'close' would never come. Its end is the end.
    sock.on('end', () => this.drop());
  }

  private finish() {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }

  /** Gone without a close handshake (ended, or silent through a heartbeat): free it now. */
  drop() {
    this.sock.destroy();
    this.finish();
  }

  /** One heartbeat round: pings; a client that answered nothing (not even a pong) for two rounds is dropped. */
  heartbeat() {
    if (++this.silentRounds > 2) return this.drop();
    this.frame(0x9, Buffer.alloc(0));
  }

  private read(d: Buffer) {
    this.silentRounds = 0;
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      if (this.buf.length < 2) return;
      const b0 = this.buf[0];
      const b1 = this.buf[1];
      const fin = (b0 & 0x80) !== 0;
      const opcode = b0 & 0x0f;
      const masked = (b1 & 0x80) !== 0;
      let len = b1 & 0x7f;
      let off = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        const big = this.buf.readBigUInt64BE(2);
        if (big > BigInt(MAX_MESSAGE)) return this.close(1009, 'message too big');
        len = Number(big);
        off = 10;
      }
      // Clients must mask every frame (RFC 6455 §5.1).
      if (!masked) return this.close(1002, 'unmasked client frame');
      if (this.buf.length < off + 4 + len) return;
      const mask = this.buf.subarray(off, off + 4);
      const payload = Buffer.from(this.buf.subarray(off + 4, off + 4 + len));
      for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
      this.buf = this.buf.subarray(off + 4 + len);
      if (opcode === 0x8) return this.close(1000, '');
      if (opcode === 0x9) {
        this.frame(0xa, payload);
        continue;
      }
      if (opcode === 0xa) continue;
      if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
        this.fragments.push(payload);
        if (this.fragments.reduce((n, f) => n + f.length, 0) > MAX_MESSAGE) return this.close(1009, 'message too big');
        if (fin) {
          const text = Buffer.concat(this.fragments).toString('utf8');
          this.fragments = [];
          this.onText(text);
        }
        continue;
      }
      return this.close(1002, 'unknown opcode');
    }
  }

  private frame(opcode: number, payload: Buffer) {
    if (this.closed) return;
    const n = payload.length;
    const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
    if (n >= 126 && n < 65536) {
      head[0] = 0x80 | opcode;
      head[1] = 126;
      head.writeUInt16BE(n, 2);
    } else if (n >= 65536) {
      head[0] = 0x80 | opcode;
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(n), 2);
    }
    this.sock.write(Buffer.concat([head, payload]));
  }

  send(text: string) {
    this.frame(0x1, Buffer.from(text, 'utf8'));
  }

  close(code: number, reason: string) {
    if (this.closed) return;
    const p = Buffer.alloc(2 + Buffer.byteLength(reason));
    p.writeUInt16BE(code, 0);
    p.write(reason, 2);
    this.frame(0x8, p);
    this.sock.end();
    this.finish();
  }
}

import { createHash } from 'node:crypto';
import type { Duplex } from 'node:stream';

// A minimal RFC 6455 WebSocket over a raw upgraded socket: text frames, fragmentation, ping/pong,
// close; no extensions (the JSON-RPC PubSub in ./websocket.ts needs no more, and no dependency).
//
// Output is bounded: what the client has not read yet stays queued in this process (the socket's
// writableLength, a browser's `bufferedAmount`), so a client that stops reading could make the server
// hold whatever it is sent. A message that would take the queue over `maxBufferedBytes` is not
// queued: the socket is closed as too slow (1008, as Agave drops a PubSub client that lags behind its
// notification queue), and the TCP connection is destroyed soon after if the client does not read
// the close frame.

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_MESSAGE = 1024 * 1024;
/** RFC 6455 §5.5: control frames carry at most 125 bytes. */
const MAX_CONTROL = 125;
/** After our close frame, the connection is destroyed if the client has not closed it by then. */
const CLOSE_TIMEOUT_MS = 5_000;
/** A client closed for not reading has a backlog in front of the close frame: it is not waited for long. */
const SLOW_CLOSE_TIMEOUT_MS = 1_000;

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
    /** Unread output above which the socket is closed as too slow. */
    private readonly maxBufferedBytes = 4 * 1024 * 1024,
  ) {
    sock.on('data', (d: Buffer) => this.read(d));
    sock.on('close', () => this.finish());
    sock.on('error', () => this.finish());
    // The HTTP server's sockets allow half-open connections: a client that goes away without a close
    // frame only ends its side, and 'close' would never come. Its end is the end.
    sock.on('end', () => this.drop());
  }

  /** Bytes sent to the client that it has not read yet (queued in this process). */
  get bufferedAmount(): number {
    return this.sock.writableLength;
  }

  get isOpen(): boolean {
    return !this.closed;
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
      // Clients must mask every frame (RFC 6455 §5.1); control frames are short and whole (§5.5).
      if (!masked) return this.close(1002, 'unmasked client frame');
      if (opcode >= 0x8 && (len > MAX_CONTROL || !fin)) return this.close(1002, 'invalid control frame');
      if (this.buf.length < off + 4 + len) return;
      const mask = this.buf.subarray(off, off + 4);
      const payload = Buffer.from(this.buf.subarray(off + 4, off + 4 + len));
      for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
      this.buf = this.buf.subarray(off + 4 + len);
      if (opcode === 0x8) return this.close(1000, '');
      if (opcode === 0x9) {
        // A pong is output like any other: a client that pings without reading is too slow as well.
        if (!this.fits(payload.length)) return;
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

  /** The header of an unfragmented frame of `n` payload bytes. */
  private static header(opcode: number, n: number): Buffer {
    if (n < 126) return Buffer.from([0x80 | opcode, n]);
    const head = Buffer.alloc(n < 65536 ? 4 : 10);
    head[0] = 0x80 | opcode;
    if (n < 65536) {
      head[1] = 126;
      head.writeUInt16BE(n, 2);
    } else {
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(n), 2);
    }
    return head;
  }

  /** Whether `n` more bytes of output fit under maxBufferedBytes; if not, the socket is closed as too slow. */
  private fits(n: number): boolean {
    if (this.closed) return false;
    if (this.sock.writableLength + n <= this.maxBufferedBytes) return true;
    const mb = Math.round(this.maxBufferedBytes / 1024 / 1024);
    this.close(1008, `client too slow: over ${mb} MB of messages left unread`, SLOW_CLOSE_TIMEOUT_MS);
    return false;
  }

  /** Writes one frame whose payload is `parts` in order; a part is queued as it is (a Buffer shared by many sockets is not copied). */
  private frame(opcode: number, ...parts: Buffer[]) {
    if (this.closed) return;
    const n = parts.reduce((k, b) => k + b.length, 0);
    const head = Socket.header(opcode, n);
    if (parts.length === 1 && n < 64 * 1024) return void this.sock.write(Buffer.concat([head, parts[0]]));
    this.sock.cork();
    this.sock.write(head);
    for (const part of parts) if (part.length) this.sock.write(part);
    this.sock.uncork();
  }

  /**
   * Sends one text message made of `parts` (UTF-8, in order). False when it was not sent: the socket
   * is closed, or its unread output would pass maxBufferedBytes, in which case it is closed now (1008).
   */
  sendParts(parts: Buffer[]): boolean {
    if (!this.fits(parts.reduce((k, b) => k + b.length, 0))) return false;
    this.frame(0x1, ...parts);
    return true;
  }

  send(text: string): boolean {
    return this.sendParts([Buffer.from(text, 'utf8')]);
  }

  /** Sends a close frame (code, reason), ends our side, and destroys the connection if the client has not closed it within `timeoutMs`. */
  close(code: number, reason: string, timeoutMs = CLOSE_TIMEOUT_MS) {
    if (this.closed) return;
    const p = Buffer.alloc(2 + Buffer.byteLength(reason));
    p.writeUInt16BE(code, 0);
    p.write(reason, 2);
    this.frame(0x8, p);
    this.sock.end();
    const timer = setTimeout(() => this.sock.destroy(), timeoutMs);
    timer.unref();
    this.sock.once('close', () => clearTimeout(timer));
    this.finish();
  }
}

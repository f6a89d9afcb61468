import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import { randomBytes } from 'node:crypto';
import { ForwardError } from './telegram';

// A minimal SMTP client (RFC 5321) for one plain-text message: EHLO, STARTTLS when offered, AUTH PLAIN
// when the URL has credentials (only over TLS, or to a loopback relay), MAIL/RCPT/DATA, QUIT.
// Written here instead of adding a mail dependency for a single message shape.

export interface MailMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  replyTo?: string | null;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();
const encodeHeader = (s: string) => (/^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`);
const addr = (s: string) => oneLine(s).replace(/[<>]/g, '');

export function buildMime(m: MailMessage, now = new Date()): string {
  const domain = m.from.split('@')[1] ?? 'localhost';
  const headers = [
    `From: ${addr(m.from)}`,
    `To: ${m.to.map(addr).join(', ')}`,
    `Subject: ${encodeHeader(oneLine(m.subject))}`,
    ...(m.replyTo ? [`Reply-To: ${addr(m.replyTo)}`] : []),
    `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${randomBytes(12).toString('hex')}@${addr(domain)}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    // base64 keeps any UTF-8 and any line length valid, and a lone "." line can't end DATA early.
    'Content-Transfer-Encoding: base64',
  ];
  const body = Buffer.from(m.text.replace(/\r?\n/g, '\r\n'), 'utf8').toString('base64').replace(/.{1,76}/g, '$&\r\n');
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

class SmtpConnection {
  private buf = '';
  private lines: string[] = [];
  private waiter: { resolve: (r: { code: number; text: string }) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;

  constructor(public socket: net.Socket) {
    this.attach(socket);
  }

  attach(socket: net.Socket) {
    this.socket = socket;
    this.buf = '';
    // No setEncoding: the raw socket may be handed to TLS (STARTTLS). Replies are ASCII.
    socket.on('data', (d: Buffer) => {
      this.buf += d.toString('latin1');
      let i: number;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i).replace(/\r$/, '');
        this.buf = this.buf.slice(i + 1);
        this.lines.push(line);
        // "250-..." continues, "250 ..." ends a reply.
        if (/^\d{3}(?: |$)/.test(line)) {
          const text = this.lines.join('\n');
          this.lines = [];
          const w = this.waiter;
          this.waiter = null;
          w?.resolve({ code: Number(line.slice(0, 3)), text });
        }
      }
    });
    const fail = (e: Error) => {
      this.failure ??= e;
      const w = this.waiter;
      this.waiter = null;
      w?.reject(e);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('SMTP connection closed')));
  }

  reply(): Promise<{ code: number; text: string }> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  async command(line: string | null, expect: number[], what: string) {
    const p = this.reply();
    if (line !== null) this.socket.write(`${line}\r\n`);
    const r = await p;
    if (!expect.includes(r.code)) throw new ForwardError(`SMTP ${what} refused: ${r.text.replace(/\n/g, ' ').slice(0, 200)}`);
    return r;
  }
}

function connect(url: URL, timeoutMs: number): Promise<net.Socket> {
  const secure = url.protocol === 'smtps:';
  const port = Number(url.port || (secure ? 465 : 25));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const s = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    s.setTimeout(timeoutMs, () => s.destroy(new Error('SMTP timed out')));
    s.once(secure ? 'secureConnect' : 'connect', () => resolve(s));
    s.once('error', reject);
  });
}

export async function sendMail(smtpUrl: string, m: MailMessage, timeoutMs = 10_000): Promise<void> {
  const url = new URL(smtpUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || host.startsWith('127.');
  let socket: net.Socket;
  try {
    socket = await connect(url, timeoutMs);
  } catch (err) {
    throw new ForwardError(`SMTP unreachable: ${(err as Error).message}`);
  }
  const c = new SmtpConnection(socket);
  let secure = url.protocol === 'smtps:';
  try {
    await c.command(null, [220], 'greeting');
    const me = os.hostname() || 'localhost';
    let ehlo = await c.command(`EHLO ${me}`, [250], 'EHLO');
    if (!secure && /^250[- ]STARTTLS\b/im.test(ehlo.text)) {
      await c.command('STARTTLS', [220], 'STARTTLS');
      socket.removeAllListeners('data');
      const upgraded = tls.connect({ socket, servername: net.isIP(host) ? undefined : host });
      await new Promise<void>((resolve, reject) => {
        upgraded.once('secureConnect', resolve);
        upgraded.once('error', reject);
      });
      c.attach(upgraded);
      secure = true;
      ehlo = await c.command(`EHLO ${me}`, [250], 'EHLO');
    }
    if (url.username) {
      // Credentials never travel in clear text over the network.
      if (!secure && !loopback) throw new ForwardError('SMTP server offers no TLS; refusing to send credentials');
      const token = Buffer.from(`\0${decodeURIComponent(url.username)}\0${decodeURIComponent(url.password)}`).toString('base64');
      await c.command(`AUTH PLAIN ${token}`, [235], 'AUTH');
    }
    await c.command(`MAIL FROM:<${addr(m.from)}>`, [250], 'MAIL FROM');
    for (const to of m.to) await c.command(`RCPT TO:<${addr(to)}>`, [250, 251], 'RCPT TO');
    await c.command('DATA', [354], 'DATA');
    await c.command(`${buildMime(m)}\r\n.`, [250], 'message');
    await c.command('QUIT', [221], 'QUIT').catch(() => undefined);
  } catch (err) {
    if (err instanceof ForwardError) throw err;
    throw new ForwardError(`SMTP failed: ${(err as Error).message}`);
  } finally {
    c.socket.destroy();
  }
}

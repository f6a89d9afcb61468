import http from 'node:http';
import net from 'node:net';

// Fakes for the boundaries this machine cannot reach, speaking the real protocols on 127.0.0.1:
// the Telegram Bot API (POST /bot<token>/sendMessage), an OpenAI-compatible chat-completions endpoint,
// and an SMTP sink.

export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeHttp {
  url: string;
  requests: Recorded[];
  /** Replaces the responder; the default answers like a healthy provider. */
  respond(fn: (req: Recorded) => { status?: number; body?: unknown; raw?: string; delayMs?: number } | null): void;
  close(): Promise<void>;
}

async function startFake(defaultResponder: (r: Recorded) => { status?: number; body?: unknown; raw?: string; delayMs?: number } | null): Promise<FakeHttp> {
  let responder = defaultResponder;
  const requests: Recorded[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* keep text */
      }
      const rec = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(rec);
      const out = responder(rec);
      if (!out) return req.socket.destroy(); // network failure
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(out.status ?? 200, { 'content-type': 'application/json' });
        res.end(out.raw ?? JSON.stringify(out.body ?? {}));
      };
      if (out.delayMs) setTimeout(send, out.delayMs);
      else send();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond: (fn) => void (responder = fn),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Bot API: `{ok: true, result: Message}` for /bot<token>/sendMessage, 404 `{ok:false}` otherwise. */
export function startFakeTelegram(token: string) {
  return startFake((r) => {
    if (r.method !== 'POST' || r.url !== `/bot${token}/sendMessage`) return { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } };
    if (!r.body?.chat_id) return { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' } };
    return { body: { ok: true, result: { message_id: 1, date: Math.floor(Date.now() / 1000), chat: { id: r.body.chat_id }, text: r.body.text } } };
  });
}

/** Chat completions: echoes the last user message so a test can see what was forwarded. */
export function startFakeOpenAI() {
  return startFake((r) => {
    const last = r.body?.messages?.at(-1)?.content ?? '';
    return {
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: r.body?.model,
        choices: [{ index: 0, message: { role: 'assistant', content: `echo: ${last}` }, finish_reason: 'stop' }],
      },
    };
  });
}

export interface SmtpSink {
  url: string;
  messages: { from: string; to: string[]; data: string; auth: string | null }[];
  close(): Promise<void>;
}

/** Accepts mail like a relay (EHLO, optional AUTH PLAIN, MAIL, RCPT, DATA, QUIT) and keeps it. */
export async function startSmtpSink(opts: { rejectRcpt?: boolean } = {}): Promise<SmtpSink> {
  const messages: SmtpSink['messages'] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    let buf = '';
    let inData = false;
    let data: string[] = [];
    let cur = { from: '', to: [] as string[], auth: null as string | null };
    const w = (l: string) => s.write(`${l}\r\n`);
    w('220 sink ESMTP ready');
    s.on('data', (d) => {
      buf += d.toString('latin1');
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push({ ...cur, data: data.join('\r\n') });
            data = [];
            w('250 2.0.0 queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const [verb] = line.split(' ');
        switch (verb.toUpperCase()) {
          case 'EHLO':
            w('250-sink');
            w('250-AUTH PLAIN');
            w('250 8BITMIME');
            break;
          case 'AUTH':
            cur.auth = Buffer.from(line.split(' ')[2] ?? '', 'base64').toString('utf8');
            w('235 2.7.0 ok');
            break;
          case 'MAIL':
            cur = { from: line.replace(/^MAIL FROM:<(.*)>.*$/i, '$1'), to: [], auth: cur.auth };
            w('250 ok');
            break;
          case 'RCPT':
            if (opts.rejectRcpt) w('550 5.1.1 no such user');
            else {
              cur.to.push(line.replace(/^RCPT TO:<(.*)>.*$/i, '$1'));
              w('250 ok');
            }
            break;
          case 'DATA':
            inData = true;
            w('354 go ahead');
            break;
          case 'QUIT':
            w('221 bye');
            s.end();
            break;
          default:
            w('502 unknown');
        }
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

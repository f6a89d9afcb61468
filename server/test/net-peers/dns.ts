// A real DNS server on loopback (dns2, UDP) whose zone a test edits: the product's resolver is
// pointed at it (ATTESTA_DNS_SERVERS), so nothing leaves this machine.
import dns2 from 'dns2';

const { Packet } = dns2;

export interface TestZone {
  /** Records by lowercase name: A addresses and TXT strings. */
  a: Map<string, string[]>;
  txt: Map<string, string[]>;
}

export async function startDnsServer(): Promise<{ server: string; zone: TestZone; queries: string[]; close(): Promise<void> }> {
  const zone: TestZone = { a: new Map(), txt: new Map() };
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      for (const q of request.questions) {
        const name = q.name.toLowerCase();
        queries.push(`${name} ${q.type === Packet.TYPE.TXT ? 'TXT' : q.type === Packet.TYPE.A ? 'A' : q.type}`);
        if (q.type === Packet.TYPE.A) for (const address of zone.a.get(name) ?? []) response.answers.push({ name: q.name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 1, address } as never); // dns2's typings want a class instance; it encodes plain records
        if (q.type === Packet.TYPE.TXT) for (const data of zone.txt.get(name) ?? []) response.answers.push({ name: q.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data } as never);
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1', type: 'udp4' } as never }); // `type` is read at run time, missing from the typings
  const port = (server.addresses().udp as { port: number }).port;
  return { server: `127.0.0.1:${port}`, zone, queries, close: () => server.close() };
}

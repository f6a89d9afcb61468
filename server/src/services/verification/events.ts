import { EventEmitter, on } from 'node:events';
import type { CertificateStatusName } from '../../../../shared/constants';

export interface StatusEvent {
  certificate_id: string;
  verification_status: CertificateStatusName;
  /** Step just logged, when the event is about progress. */
  step: string | null;
  step_status: string | null;
  updated_at: string;
}

/** In-process pub/sub for status changes; one server process owns the worker (SQLite). */
export class EventBus {
  private emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish(e: StatusEvent) {
    this.emitter.emit(`cert:${e.certificate_id}`, e);
  }
  /** The certificates someone is watching now (an open page's subscription): bounded by open connections. */
  watched(): string[] {
    return this.emitter.eventNames().flatMap((n) => (typeof n === 'string' && n.startsWith('cert:') && this.emitter.listenerCount(n) > 0 ? [n.slice(5)] : []));
  }
  /** Async iterator of events for one certificate, ended by `signal`. */
  subscribe(certificateId: string, signal?: AbortSignal): AsyncIterableIterator<StatusEvent> {
    const it = on(this.emitter, `cert:${certificateId}`, { signal }) as AsyncIterableIterator<[StatusEvent]>;
    return (async function* () {
      try {
        for await (const [e] of it) yield e;
      } catch (err) {
        if ((err as Error).name !== 'AbortError') throw err;
      }
    })();
  }
}

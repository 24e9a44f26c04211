/** Chat turns in flight in this process, from a turn's start to its settle: the in-process import waits for none. */
export class TurnsInFlight {
  private count = 0;
  private readonly waiting = new Set<() => void>();

  get size(): number {
    return this.count;
  }

  /** The returned release may be called more than once; only the first counts. */
  begin(): () => void {
    this.count++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count--;
      if (this.count > 0) return;
      for (const wake of [...this.waiting]) wake();
    };
  }

  /** True once no turn is in flight; false at `deadline` (a `performance.now()` time) if some still is. */
  idle(deadline: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    const left = deadline - performance.now();
    if (left <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve(idle);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), left);
      this.waiting.add(wake);
    });
  }
}

// One count per server process, kept across dev-server hot reloads (like the runners in lib/runtime.ts).
const globalForTurns = globalThis as unknown as { __lifelineChatTurns?: TurnsInFlight };

export function chatTurnsInFlight(): TurnsInFlight {
  globalForTurns.__lifelineChatTurns ??= new TurnsInFlight();
  return globalForTurns.__lifelineChatTurns;
}

const arrived = new WeakMap<Request, () => void>();

/**
 * Counts a chat request as a turn in flight from its arrival, before authentication and the body are read: on PGlite
 * those queries would otherwise queue behind an import's. `claimTurn` hands the count to the turn; a request refused
 * before it stops counting with its response.
 */
export function countFromArrival<C>(
  handler: (request: Request, context: C) => Promise<Response>,
): (request: Request, context: C) => Promise<Response> {
  return async (request, context) => {
    arrived.set(request, chatTurnsInFlight().begin());
    try {
      return await handler(request, context);
    } finally {
      arrived.get(request)?.();
      arrived.delete(request);
    }
  };
}

/** The count begun at the request's arrival, now the turn's to end; a new one when none was begun. */
export function claimTurn(request: Request): () => void {
  const endTurn = arrived.get(request);
  arrived.delete(request);
  return endTurn ?? chatTurnsInFlight().begin();
}

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

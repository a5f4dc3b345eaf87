/**
 * How many episodes of a remote environment are open at once in this process: `spec.concurrency`, shared by every
 * RemoteEnvironment of that name (a run's rollouts, its evaluation, a collection job), because the limit protects
 * the environment, not one caller. Waiters are served in arrival order.
 */

export type Release = () => void;

interface Waiter {
  grant: () => void;
}

export class Slots {
  private open = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private limit: number) {}

  /** A new registration of the same name may change the limit; waiters beyond the old one start if it grew. */
  setLimit(limit: number): void {
    this.limit = limit;
    this.wake();
  }

  get inUse(): number {
    return this.open;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function once a slot is free; releasing twice frees one slot only. */
  async acquire(): Promise<Release> {
    return (await this.acquireWithin(Number.POSITIVE_INFINITY)) as Release;
  }

  /** As acquire, but gives up after `ms` (resolving undefined) rather than queueing behind busy episodes forever. */
  acquireWithin(ms: number): Promise<Release | undefined> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.releaser());
        },
      };
      this.waiting.push(waiter);
      this.wake();
      if (!this.waiting.includes(waiter) || !Number.isFinite(ms)) return;
      timer = setTimeout(() => {
        const at = this.waiting.indexOf(waiter);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        resolve(undefined);
      }, ms);
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open--;
      this.wake();
    };
  }

  private wake(): void {
    while (this.open < this.limit && this.waiting.length > 0) {
      this.open++;
      (this.waiting.shift() as Waiter).grant();
    }
  }
}

const byName = new Map<string, Slots>();

/** The process's slots for the environment named `name`, at its latest registered limit. */
export function slotsFor(name: string, concurrency: number): Slots {
  let slots = byName.get(name);
  if (!slots) {
    slots = new Slots(concurrency);
    byName.set(name, slots);
  } else slots.setLimit(concurrency);
  return slots;
}

/** Episodes of the environment open in this process now, and callers waiting for one (for pages and logs). */
export function openEpisodes(name: string): { open: number; waiting: number } {
  const slots = byName.get(name);
  return { open: slots?.inUse ?? 0, waiting: slots?.queued ?? 0 };
}

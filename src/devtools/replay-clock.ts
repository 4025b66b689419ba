import type { ActorOptions, AnyActorLogic } from 'xstate';

type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

// The clock a replay runs the portal's timers on (toast durations, the wallet's
// login hint, the notification feed's back-off). Like XState's SimulatedClock,
// time only moves when the replay moves it: to each recorded entry's `at`.
// Unlike it, moving time never fires a timer by itself: a timer fires only
// when the recording shows its event next (`fireNext`). Real timers can fire
// a fraction of a millisecond early or late against performance.now(), so a
// clock that fired whatever is due could put a timer before an event the
// recording shows just ahead of it.

type Timer = { due: number; order: number; fire: () => void };

export class ReplayClock implements Clock {
  private time = 0;
  private nextId = 0;
  private readonly timers = new Map<number, Timer>();

  now(): number {
    return this.time;
  }

  setTimeout(fn: (...args: unknown[]) => void, timeout: number): number {
    const id = this.nextId++;
    this.timers.set(id, { due: this.time + timeout, order: id, fire: () => fn() });
    return id;
  }

  clearTimeout(id: number): void {
    this.timers.delete(id);
  }

  /** Moves time forward to `at` (never back); fires nothing. */
  advanceTo(at: number): void {
    this.time = Math.max(this.time, at);
  }

  get pending(): number {
    return this.timers.size;
  }

  /** Fires the timer due first (the earlier set among equals); false when none is pending. */
  fireNext(): boolean {
    let next: [number, Timer] | undefined;
    for (const entry of this.timers) {
      const [, timer] = entry;
      if (!next || timer.due < next[1].due || (timer.due === next[1].due && timer.order < next[1].order))
        next = entry;
    }
    if (!next) return false;
    const [id, timer] = next;
    this.timers.delete(id);
    this.advanceTo(timer.due);
    timer.fire();
    return true;
  }
}

import { startTimer } from './start-timer.js';

/**
 * A timer armed while the port waits on the upstream and disarmed when data it cares about arrives.
 * It is armed only while a reader is pulling, so a slow client never looks like a silent upstream.
 */
export class IdleTimeout {
  private clear: (() => void) | undefined;

  constructor(
    private readonly ms: number,
    private readonly onTimeout: () => void,
  ) {}

  arm(): void {
    this.disarm();
    this.clear = startTimer(this.ms, this.onTimeout);
  }

  disarm(): void {
    this.clear?.();
    this.clear = undefined;
  }
}

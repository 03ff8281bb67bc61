/** One server-sent event as parsed from (or written to) the wire. `data` is the joined data lines. */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

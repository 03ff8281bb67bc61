/**
 * What the gateway reads and drops of a request body after answering before it arrived (401, 413, 415,
 * 503, 408), before it closes: a lingering close, as nginx's, since closing with unread bytes sends a
 * reset that drops the answer on the client's side. The bytes cover what a fast client has in flight
 * (both ends' socket buffers); the time, a slow client's round trip.
 */
export const earlyAnswerLinger = { bytes: 8 * 1024 * 1024, ms: 2_000 } as const;

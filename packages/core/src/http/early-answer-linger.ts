/**
 * What the gateway reads and drops of a request body after answering before the body arrived (401,
 * 413, 415, 503, 408), before it closes the connection: a lingering close, as nginx's. Closing at once
 * would leave the body's bytes unread in the socket, and the reset the kernel then sends makes the
 * client's kernel drop the answer the client has not read yet. The bytes cover what a fast client has
 * in flight when the answer leaves (both ends' socket buffers, a few MiB); the time, a slow client's
 * round trip, after which the client has the answer and has stopped sending.
 */
export const earlyAnswerLinger = { bytes: 8 * 1024 * 1024, ms: 2_000 } as const;

/*
 * The messages between the gateway's thread and a local backend worker: one request and its Response,
 * whose body the worker sends one chunk per `pull`, so a slow reader slows the worker as it slows an
 * in-process handler.
 */

export type HeaderList = Array<[name: string, value: string]>;

export type ToWorker =
  | {
      type: 'request';
      id: number;
      method: string;
      url: string;
      headers: HeaderList;
      body: ArrayBuffer | null;
    }
  /** Send the body's next chunk. */
  | { type: 'pull'; id: number }
  /** The client left: abort the request's signal and cancel its body. */
  | { type: 'cancel'; id: number };

export type FromWorker =
  | { type: 'head'; id: number; status: number; headers: HeaderList; hasBody: boolean }
  | { type: 'chunk'; id: number; bytes: Uint8Array }
  | { type: 'end'; id: number }
  /** The handler threw, or its body failed. */
  | { type: 'fail'; id: number; message: string }
  /** The worker's heap once a request is over. */
  | { type: 'heap'; bytes: number };

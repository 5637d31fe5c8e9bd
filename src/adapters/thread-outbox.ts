// Messages to another thread, sent together. Each postMessage costs a structured clone, a wake-up of the other
// thread and a 'message' event there, whatever it carries; a crawler trading three messages per request with its
// fetch thread paid that thousands of times a second. But a batch must not wait long: a turn of the event loop
// can be long (a thousand domains started in one turn, each with its synchronous SQLite reads, all through
// microtasks), and a request held back until that turn ends holds back its host's whole chain.

export interface Outbox<M> {
  /** Queues a message (and the buffers it hands over) for the next flush. */
  send(message: M, transfer?: ArrayBuffer): void;
  /** Sends what is queued now (before a close, whose answer must not wait a turn). */
  flush(): void;
}

/**
 * Messages per post at most: a full batch goes at once, mid-turn. 16 keeps the cost per message near that of
 * a batch per turn (a wake-up shared by 16) while the first of a long turn's messages leave early.
 */
export const OUTBOX_MAX_BATCH = 16;

/**
 * `post` gets every message queued since the last flush, in order, and the buffers to transfer with them. The
 * flush runs at the end of the current turn (setImmediate), or as soon as `maxBatch` messages are queued:
 * messages made while handling one batch, or one timer's worth of answers, travel together.
 */
export function createOutbox<M>(
  post: (batch: M[], transfer: ArrayBuffer[]) => void,
  maxBatch = OUTBOX_MAX_BATCH,
): Outbox<M> {
  let batch: M[] = [];
  let transfer: ArrayBuffer[] = [];
  let scheduled: NodeJS.Immediate | null = null;
  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = null;
    if (batch.length === 0) return;
    const messages = batch;
    const buffers = transfer;
    batch = [];
    transfer = [];
    post(messages, buffers);
  };
  return {
    send(message, buffer) {
      batch.push(message);
      if (buffer) transfer.push(buffer);
      if (batch.length >= maxBatch) flush();
      else scheduled ??= setImmediate(flush);
    },
    flush,
  };
}

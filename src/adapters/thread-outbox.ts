// Messages to another thread, sent together once per turn of the event loop. Each postMessage costs a
// structured clone, a wake-up of the other thread and a 'message' event there, whatever it carries; a crawler
// trading three messages per request with its fetch thread paid that thousands of times a second.

export interface Outbox<M> {
  /** Queues a message (and the buffers it hands over) for the next flush. */
  send(message: M, transfer?: ArrayBuffer): void;
  /** Sends what is queued now (before a close, whose answer must not wait a turn). */
  flush(): void;
}

/**
 * `post` gets every message queued since the last flush, in order, and the buffers to transfer with them. The
 * flush runs at the end of the current turn (setImmediate): messages made while handling one batch, or one
 * timer's worth of answers, travel as one.
 */
export function createOutbox<M>(post: (batch: M[], transfer: ArrayBuffer[]) => void): Outbox<M> {
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
      scheduled ??= setImmediate(flush);
    },
    flush,
  };
}

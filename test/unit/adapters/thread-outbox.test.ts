import { describe, expect, it } from 'vitest';
import { createOutbox } from '../../../src/adapters/thread-outbox.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('thread outbox', () => {
  it('sends the messages of one turn as one batch, in order, with the buffers they hand over', async () => {
    const posted: Array<{ batch: string[]; transfer: ArrayBuffer[] }> = [];
    const outbox = createOutbox<string>((batch, transfer) => posted.push({ batch, transfer }));
    const buffer = new ArrayBuffer(8);
    outbox.send('a');
    outbox.send('b', buffer);
    await Promise.resolve();
    outbox.send('c');
    expect(posted).toHaveLength(0);
    await turn();
    expect(posted).toEqual([{ batch: ['a', 'b', 'c'], transfer: [buffer] }]);
    outbox.send('d');
    await turn();
    expect(posted.map((p) => p.batch)).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('sends a full batch at once, without waiting for the end of a long turn', async () => {
    const posted: number[][] = [];
    const outbox = createOutbox<number>((batch) => posted.push(batch), 3);
    for (let i = 1; i <= 7; i += 1) outbox.send(i);
    expect(posted).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    await turn();
    expect(posted).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('sends at once on flush, and nothing twice', async () => {
    const posted: string[][] = [];
    const outbox = createOutbox<string>((batch) => posted.push(batch));
    outbox.send('close');
    outbox.flush();
    expect(posted).toEqual([['close']]);
    await turn();
    outbox.flush();
    expect(posted).toEqual([['close']]);
  });
});

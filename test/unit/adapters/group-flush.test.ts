import { describe, expect, it } from 'vitest';
import { groupFlush } from '../../../src/adapters/group-flush.js';

describe('group flush', () => {
  it('settles everything submitted while a flush runs with the next one', async () => {
    const groups: number[][] = [];
    let release: () => void = () => {};
    const flusher = groupFlush<number>(async (items) => {
      groups.push(items);
      if (groups.length === 1)
        await new Promise<void>((resolve) => {
          release = resolve;
        });
    });
    const first = [flusher.submit(1), flusher.submit(2)];
    await new Promise((resolve) => setImmediate(resolve));
    const later = [flusher.submit(3), flusher.submit(4), flusher.submit(5)];
    release();
    await Promise.all([...first, ...later]);
    expect(groups).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('fails only the items of a failed flush', async () => {
    const flusher = groupFlush<string>(async (items) => {
      if (items.includes('bad')) throw new Error('statement failed');
    });
    const bad = flusher.submit('bad');
    await expect(bad).rejects.toThrow('statement failed');
    await expect(flusher.submit('good')).resolves.toBeUndefined();
  });
});

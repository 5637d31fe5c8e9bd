import { describe, expect, it } from 'vitest';
import { follow, progressLine, progressWriter } from '../../../src/cli/progress.js';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
}

describe('batch progress on stderr', () => {
  it('says the status and the item counts in one line', () => {
    expect(
      progressLine({
        status: 'running',
        total_items: 10,
        items: { succeeded: 3, failed: 1, skipped: 0, pending: 6 },
      }),
    ).toBe('running: 3 succeeded, 1 failed, 0 skipped, 6 pending of 10');
  });

  it('writes plain lines, each change once and never a carriage return, when stderr is not a terminal', () => {
    const out = stream(false);
    const progress = progressWriter(out);
    for (const line of ['queued: 0', 'queued: 0', 'running: 1', 'completed: 2']) progress.show(line);
    progress.done();
    expect(out.written).toEqual(['queued: 0\n', 'running: 1\n', 'completed: 2\n']);
    expect(out.written.join('')).not.toContain('\r');
  });

  it('redraws one line on a terminal and ends it when done', () => {
    const out = stream(true);
    const progress = progressWriter(out);
    progress.show('queued: 0');
    progress.show('completed: 2');
    progress.done();
    expect(out.written).toEqual(['\rqueued: 0\x1b[K', '\rcompleted: 2\x1b[K', '\n']);
  });

  it('follows until the batch leaves queued and running, and answers its final view', async () => {
    const states = ['queued', 'running', 'running', 'completed_with_errors'];
    const out = stream(false);
    const final = await follow(async () => ({ status: states.shift() as string }), out, 1);
    expect(final.status).toBe('completed_with_errors');
    expect(out.written).toEqual(['queued: \n', 'running: \n', 'completed_with_errors: \n']);
  });
});

// One behaviour suite for the JobQueue port, run against every adapter (embedded, pg-boss).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackendUnavailableError, PermanentError, RetryLaterError } from '../../src/domain/errors.js';
import type { Database } from '../../src/ports/database.js';
import type { Job, JobQueue } from '../../src/ports/queue.js';
import { until } from '../support/waiting.js';

export interface QueueFixture {
  database: Database;
  queue: JobQueue;
  /** Makes every lease taken from now on expire at once (simulates a worker that died). */
  expireLeases?: () => Promise<void>;
  cleanup(): Promise<void>;
}

export function runQueueContract(name: string, makeFixture: () => Promise<QueueFixture>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let fixture: QueueFixture;
    beforeEach(async () => {
      fixture = await makeFixture();
      await fixture.queue.start();
    });
    afterEach(async () => {
      await fixture.queue.stop();
      await fixture.cleanup();
    });

    it('delivers jobs enqueued in a committed transaction, each once', async () => {
      const { database, queue } = fixture;
      await database.transaction((trx) =>
        queue.enqueue(
          trx,
          Array.from({ length: 25 }, (_, n) => ({ queue: 'RESEARCH_QUEUE' as const, payload: { n } })),
        ),
      );
      const seen: number[] = [];
      const consumer = queue.consume('RESEARCH_QUEUE', { concurrency: 4 }, async (job) => {
        seen.push(job.payload.n as number);
      });
      await until('all 25 jobs are seen', () => seen.length >= 25);
      await consumer.stop();
      expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, n) => n));
    });

    it('keeps nothing of a rolled-back transaction', async () => {
      const { database, queue } = fixture;
      await expect(
        database.transaction(async (trx) => {
          await queue.enqueue(trx, [{ queue: 'SEED_QUEUE', payload: { lost: true } }]);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const stats = await queue.stats();
      expect(stats.find((s) => s.queue === 'SEED_QUEUE')?.queued).toBe(0);
    });

    it('retries a failing job and then succeeds', async () => {
      const { database, queue } = fixture;
      await database.transaction((trx) =>
        queue.enqueue(trx, [{ queue: 'LIVENESS_QUEUE', payload: { x: 1 } }]),
      );
      const attempts: number[] = [];
      const consumer = queue.consume('LIVENESS_QUEUE', { concurrency: 1 }, async (job) => {
        attempts.push(job.attempt);
        if (job.attempt < 2) throw new Error('transient');
      });
      await until('the job is tried twice', () => attempts.length >= 2);
      await consumer.stop();
      expect(attempts).toEqual([1, 2]);
    });

    it('dead-letters a job after its last attempt and at once on a permanent error', async () => {
      const { database, queue } = fixture;
      await database.transaction((trx) =>
        queue.enqueue(trx, [
          { queue: 'CONTRACT_QUEUE', payload: { kind: 'flaky' }, maxAttempts: 2 },
          { queue: 'CONTRACT_QUEUE', payload: { kind: 'permanent' }, maxAttempts: 5 },
        ]),
      );
      const calls: string[] = [];
      const consumer = queue.consume('CONTRACT_QUEUE', { concurrency: 2 }, async (job: Job) => {
        calls.push(`${job.payload.kind}:${job.attempt}`);
        if (job.payload.kind === 'permanent') throw new PermanentError('never');
        throw new Error('always');
      });
      await until(
        'both jobs are dead',
        async () => (await queue.stats()).find((s) => s.queue === 'CONTRACT_QUEUE')?.dead === 2,
      );
      await consumer.stop();
      expect(calls.filter((c) => c.startsWith('permanent'))).toEqual(['permanent:1']);
      expect(calls.filter((c) => c.startsWith('flaky')).sort()).toEqual(['flaky:1', 'flaky:2']);
    });

    it('hands a job that met a backend outage back without using up its attempt', async () => {
      const { database, queue } = fixture;
      // One attempt only: a failure that counted would dead-letter it at once.
      await database.transaction((trx) =>
        queue.enqueue(trx, [{ queue: 'RESEARCH_QUEUE', payload: { chunk: 1 }, maxAttempts: 1 }]),
      );
      const attempts: number[] = [];
      const consumer = queue.consume('RESEARCH_QUEUE', { concurrency: 1 }, async (job) => {
        attempts.push(job.attempt);
        if (attempts.length <= 3) {
          throw new BackendUnavailableError('object store', new Error('connect ECONNREFUSED 127.0.0.1:9'));
        }
      });
      await until('four attempts are made', () => attempts.length >= 4);
      await until('the research queue is empty', async () => {
        const stats = (await queue.stats()).find((s) => s.queue === 'RESEARCH_QUEUE');
        return stats?.queued === 0 && stats.active === 0 && stats.retrying === 0;
      });
      await consumer.stop();
      expect(attempts).toEqual([1, 1, 1, 1]);
      expect((await queue.stats()).find((s) => s.queue === 'RESEARCH_QUEUE')?.dead).toBe(0);
    });

    it('drops a duplicate singleton while the first is live', async () => {
      const { database, queue } = fixture;
      await database.transaction((trx) =>
        queue.enqueue(trx, [
          { queue: 'METADATA_QUEUE', payload: { a: 1 }, singletonKey: 'sync' },
          { queue: 'METADATA_QUEUE', payload: { a: 2 }, singletonKey: 'sync' },
        ]),
      );
      await database.transaction((trx) =>
        queue.enqueue(trx, [{ queue: 'METADATA_QUEUE', payload: { a: 3 }, singletonKey: 'sync' }]),
      );
      const stats = await queue.stats();
      expect(stats.find((s) => s.queue === 'METADATA_QUEUE')?.queued).toBe(1);
    });

    it('delivers the payload as it was enqueued, with the attempt and maxAttempts', async () => {
      const { database, queue } = fixture;
      const payload = { nested: { list: [1, 'two', null, true] }, text: 'é 🌱', n: 1.5 };
      await database.transaction((trx) =>
        queue.enqueue(trx, [{ queue: 'RESEARCH_QUEUE', payload, maxAttempts: 3 }]),
      );
      const seen: Job[] = [];
      const consumer = queue.consume('RESEARCH_QUEUE', { concurrency: 1 }, async (job) => {
        seen.push(job);
      });
      await until('the job is seen', () => seen.length === 1);
      await consumer.stop();
      expect(seen[0]).toMatchObject({ queue: 'RESEARCH_QUEUE', payload, attempt: 1, maxAttempts: 3 });
    });

    it('keeps a job with a future runAt back while later jobs are delivered', async () => {
      const { database, queue } = fixture;
      await database.transaction((trx) =>
        queue.enqueue(trx, [
          { queue: 'LIVENESS_QUEUE', payload: { name: 'later' }, runAt: new Date(Date.now() + 3_600_000) },
          { queue: 'LIVENESS_QUEUE', payload: { name: 'now' } },
        ]),
      );
      const seen: string[] = [];
      const consumer = queue.consume('LIVENESS_QUEUE', { concurrency: 2 }, async (job) => {
        seen.push(job.payload.name as string);
      });
      await until('a job is seen', () => seen.length >= 1);
      await consumer.stop();
      expect(seen).toEqual(['now']);
      expect((await queue.stats()).find((s) => s.queue === 'LIVENESS_QUEUE')).toMatchObject({
        queued: 1,
        active: 0,
      });
    });

    it('holds a failed job back for its Retry-After and counts it as retrying', async () => {
      const { database, queue } = fixture;
      await database.transaction((trx) => queue.enqueue(trx, [{ queue: 'CONTRACT_QUEUE', payload: {} }]));
      const attempts: number[] = [];
      const consumer = queue.consume('CONTRACT_QUEUE', { concurrency: 1 }, async (job) => {
        attempts.push(job.attempt);
        throw new RetryLaterError('slow down', 3_600_000);
      });
      await until('the job is tried', () => attempts.length === 1);
      await consumer.stop();
      expect(attempts).toEqual([1]);
      const stats = (await queue.stats()).find((s) => s.queue === 'CONTRACT_QUEUE');
      expect(stats).toMatchObject({ queued: 0, active: 0, retrying: 1, dead: 0 });
    });

    it('accepts a singleton again once the first one is done', async () => {
      const { database, queue } = fixture;
      const job = { queue: 'METADATA_QUEUE' as const, payload: {}, singletonKey: 'sync' };
      await database.transaction((trx) => queue.enqueue(trx, [job]));
      let handled = 0;
      const consumer = queue.consume('METADATA_QUEUE', { concurrency: 1 }, async () => {
        handled++;
      });
      await until('the job is handled', () => handled === 1);
      await consumer.stop();
      await database.transaction((trx) => queue.enqueue(trx, [job]));
      expect((await queue.stats()).find((s) => s.queue === 'METADATA_QUEUE')).toMatchObject({
        queued: 1,
        active: 0,
      });
    });

    it('waits in stop() for the jobs in flight, and acknowledges them', async () => {
      const { database, queue } = fixture;
      await database.transaction((trx) => queue.enqueue(trx, [{ queue: 'SEED_QUEUE', payload: {} }]));
      let release!: () => void;
      const hang = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started = false;
      let finished = false;
      const consumer = queue.consume('SEED_QUEUE', { concurrency: 1 }, async () => {
        started = true;
        await hang;
        finished = true;
      });
      await until('the handler starts', () => started);
      let stopped = false;
      const stopping = consumer.stop().then(() => {
        stopped = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(finished).toBe(true);
      expect((await queue.stats()).find((s) => s.queue === 'SEED_QUEUE')).toMatchObject({
        queued: 0,
        active: 0,
        retrying: 0,
        dead: 0,
      });
    });

    it('gives a job back when its worker stops renewing the lease', async () => {
      if (!fixture.expireLeases) return expect(fixture.expireLeases).toBeUndefined();
      const { database, queue } = fixture;
      await database.transaction((trx) => queue.enqueue(trx, [{ queue: 'SEED_QUEUE', payload: { f: 1 } }]));
      let release!: () => void;
      const hang = new Promise<void>((resolve) => {
        release = resolve;
      });
      const firstAttempts: number[] = [];
      const stuck = queue.consume('SEED_QUEUE', { concurrency: 1 }, async (job) => {
        firstAttempts.push(job.attempt);
        await hang;
        throw new Error('the stuck worker never acknowledges');
      });
      await until('the first consumer tries the job', () => firstAttempts.length === 1);
      await fixture.expireLeases();
      const secondAttempts: number[] = [];
      const rescuer = queue.consume('SEED_QUEUE', { concurrency: 1 }, async (job) => {
        secondAttempts.push(job.attempt);
      });
      await until('the second consumer tries the job', () => secondAttempts.length === 1);
      release();
      await Promise.all([stuck.stop(), rescuer.stop()]);
      expect(secondAttempts).toEqual([2]);
    });
    it('delivers once more, past maxAttempts, a job whose worker died on its last attempt', async () => {
      if (!fixture.expireLeases) return expect(fixture.expireLeases).toBeUndefined();
      const { database, queue } = fixture;
      await database.transaction((trx) =>
        queue.enqueue(trx, [{ queue: 'SEED_QUEUE', payload: { last: true }, maxAttempts: 1 }]),
      );
      let release!: () => void;
      const hang = new Promise<void>((resolve) => {
        release = resolve;
      });
      const first: [number, number][] = [];
      const stuck = queue.consume('SEED_QUEUE', { concurrency: 1 }, async (job) => {
        first.push([job.attempt, job.maxAttempts]);
        await hang;
        throw new Error('the stuck worker never acknowledges');
      });
      await until('the stuck consumer takes the job', () => first.length === 1);
      await fixture.expireLeases();
      const again: [number, number][] = [];
      // What the runner does with attempt > maxAttempts: records the job as exhausted, then fails it.
      const rescuer = queue.consume('SEED_QUEUE', { concurrency: 1 }, async (job) => {
        again.push([job.attempt, job.maxAttempts]);
        throw new Error('exhausted');
      });
      await until(
        'the seed job is dead',
        async () => (await queue.stats()).find((s) => s.queue === 'SEED_QUEUE')?.dead === 1,
      );
      release();
      await Promise.all([stuck.stop(), rescuer.stop()]);
      expect(first).toEqual([[1, 1]]);
      expect(again).toEqual([[2, 1]]);
      expect((await queue.stats()).find((s) => s.queue === 'SEED_QUEUE')).toMatchObject({
        queued: 0,
        active: 0,
        retrying: 0,
        dead: 1,
      });
    });
  });
}

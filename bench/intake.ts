// Intake of a 10,000-URL research batch (HTTP POST: parse, validate, batch + 100 chunks + 100 messages in
// one transaction) vs parsing and validating the same body alone, in the same run.
import { researchBatchSchema } from '../src/http/routes/queues.js';
import { type BenchResult, report, withSeedbed } from './support.js';

const ROUNDS = 20;

function body(round: number): string {
  return JSON.stringify({
    country: 'gb',
    category: 'news',
    urls: Array.from(
      { length: 10_000 },
      (_, i) => `https://site${i % 500}.example.co.uk/round-${round}/article-${i}?ref=feed`,
    ),
  });
}

export async function benchIntake(): Promise<BenchResult> {
  const bodies = Array.from({ length: ROUNDS }, (_, i) => body(i));

  let started = process.hrtime.bigint();
  for (const text of bodies) researchBatchSchema.parse(JSON.parse(text));
  const baselineMs = Number(process.hrtime.bigint() - started) / 1e6 / ROUNDS;

  const subjectMs = await withSeedbed({}, async (seedbed) => {
    const app = await seedbed.buildHttp(true);
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const post = async (text: string) => {
        const response = await fetch(`${url}/api/v1/queues/research`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        });
        if (response.status !== 202) throw new Error(`intake answered ${response.status}`);
        await response.arrayBuffer();
      };
      await post(body(-1));
      started = process.hrtime.bigint();
      for (const text of bodies) await post(text);
      return Number(process.hrtime.bigint() - started) / 1e6 / ROUNDS;
    } finally {
      await app.close();
    }
  });
  return report({
    name: '10,000-URL research batch intake',
    subject: 'POST /queues/research',
    subjectValue: 1000 / subjectMs,
    baseline: 'JSON.parse + zod validation alone',
    baselineValue: 1000 / baselineMs,
    unit: 'batches/s',
    ratio: baselineMs / subjectMs,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchIntake();

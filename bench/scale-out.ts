// Research pipeline URLs/s on PostgreSQL + S3 (s3rver) with one and with two `seedbed worker` processes,
// each against the same normalisation in a tight loop, measured in the same run.
import pg from 'pg';
import { classifyUrl } from '../src/domain/urls.js';
import { getJson, postJson, type SeedbedProcess, startSeedbedProcess } from '../test/support/process.js';
import { startS3rver } from '../test/support/s3rver.js';
import { TEST_DATABASE_URL } from '../test/support/services.js';
import { type BenchResult, rate, report } from './support.js';

const URLS = 10_000;

async function withDatabase<T>(name: string, work: (url: string) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function pipelineRate(workers: number): Promise<number> {
  const s3 = await startS3rver();
  try {
    return await withDatabase(`seedbed_bench_${process.pid}_${workers}`, async (databaseUrl) => {
      const env = {
        DATABASE_URL: databaseUrl,
        SEEDBED_OBJECTS: `s3://${s3.bucket}/bench`,
        S3_ENDPOINT: s3.endpoint,
        AWS_REGION: s3.region,
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        SEEDBED_LOG_LEVEL: 'warn',
        SEEDBED_RATE_LIMIT: '1000000',
      };
      const processes: SeedbedProcess[] = [];
      try {
        const api = await startSeedbedProcess({ ...env, SEEDBED_LOG_LEVEL: 'info' }, ['api']);
        processes.push(api);
        for (let i = 0; i < workers; i++) {
          processes.push(
            await startSeedbedProcess({ ...env, SEEDBED_LOG_LEVEL: 'info' }, [
              'worker',
              '--queues',
              'RESEARCH_QUEUE',
            ]),
          );
        }
        const urls = Array.from({ length: URLS }, (_, i) => `https://www.site${i % 700}.gov.au/news/${i}`);
        const started = process.hrtime.bigint();
        const accepted = await postJson(api.url, '/api/v1/queues/research', {
          country: 'au',
          category: 'news',
          urls,
          chunkSize: 100,
        });
        for (;;) {
          const batch = await getJson(api.url, `/api/v1/queues/batch/${accepted.body.batchId}`);
          if (batch.status !== 'queued' && batch.status !== 'running') {
            if (batch.items.succeeded !== URLS) throw new Error(`lost URLs: ${JSON.stringify(batch.items)}`);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return rate(URLS, started);
      } finally {
        await Promise.all(processes.map((p) => p.kill('SIGTERM')));
      }
    });
  } finally {
    await s3.stop();
  }
}

export async function benchScaleOut(): Promise<BenchResult[]> {
  const started = process.hrtime.bigint();
  let ok = 0;
  for (let i = 0; i < URLS * 5; i++)
    if (classifyUrl(`https://www.site${i % 700}.gov.au/loop/${i}`, 'au').ok) ok++;
  const baseline = rate(ok, started);
  const results: BenchResult[] = [];
  for (const workers of [1, 2]) {
    const subject = await pipelineRate(workers);
    results.push(
      report({
        name: `research pipeline (PostgreSQL + S3, ${workers} worker process${workers > 1 ? 'es' : ''})`,
        subject: 'api + queue + workers + storage',
        subjectValue: subject,
        baseline: 'normalisation in a tight loop',
        baselineValue: baseline,
        unit: 'URLs/s',
        ratio: subject / baseline,
      }),
    );
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchScaleOut();

// The API suite (test/api) again, on the scale-out backends: PostgreSQL + S3 (s3rver) + pg-boss instead of
// SQLite + a folder + the embedded queue (test/support/backend.ts), and the tests of PostgreSQL alone that the
// default run leaves to this one (POSTGRES_RUN_ONLY: PostgreSQL's plans of the lists). `npm run test:pg`;
// `npm run check` runs it after the default run. PostgreSQL is probed first: when it is down the run is skipped with the reason, and with
// SEEDBED_REQUIRE_SERVICES=1 (CI) it fails instead.
import { configDefaults, defineConfig } from 'vitest/config';
import { startS3rver } from './test/support/s3rver.js';
import { pgAvailable, serviceOrSkip } from './test/support/services.js';
import base, { POSTGRES_RUN_ONLY } from './vitest.config.js';

const up =
  (await pgAvailable()) &&
  (await serviceOrSkip('s3rver', async () => {
    await (await startS3rver()).stop();
  }));

// Spread, not mergeConfig: mergeConfig would append this include to the default run's.
export default defineConfig({
  test: {
    ...base.test,
    include: up ? ['test/api/**/*.test.ts', ...POSTGRES_RUN_ONLY] : [],
    exclude: configDefaults.exclude,
    passWithNoTests: !up,
    env: { SEEDBED_TEST_BACKEND: 'postgres' },
  },
});

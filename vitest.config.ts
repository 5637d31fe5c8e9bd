import { configDefaults, defineConfig } from 'vitest/config';

/** Tests of PostgreSQL alone that the PostgreSQL run (vitest.pg.config.ts) owns, so `npm run check` runs them once. */
export const POSTGRES_RUN_ONLY = ['test/integration/postgres-list-plans.test.ts'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...POSTGRES_RUN_ONLY],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});

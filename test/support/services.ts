// Guards for tests that need an outside service (PostgreSQL, an S3 server): they run when the service
// answers and are skipped with the reason when it does not — unless SEEDBED_REQUIRE_SERVICES=1 (CI), where
// a missing service fails the run, so a suite can never pass by silently skipping.
import pg from 'pg';

export const TEST_DATABASE_URL =
  process.env['SEEDBED_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export function servicesRequired(): boolean {
  return process.env['SEEDBED_REQUIRE_SERVICES'] === '1';
}

/**
 * Runs `probe`; true when it succeeds. On failure: throws when services are required (the test file fails
 * with the service named), otherwise prints why and returns false. Use with top-level await:
 * `const up = await serviceOrSkip('postgres', probe); describe.skipIf(!up)(...)`.
 */
export async function serviceOrSkip(name: string, probe: () => Promise<void>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    const reason = describeError(error);
    if (servicesRequired()) {
      throw new Error(`required service ${name} is unavailable (SEEDBED_REQUIRE_SERVICES=1): ${reason}`, {
        cause: error,
      });
    }
    console.warn(
      `[skip] ${name} is unavailable, its tests are skipped: ${reason}. Set SEEDBED_REQUIRE_SERVICES=1 to fail instead.`,
    );
    return false;
  }
}

/** Whether the test PostgreSQL answers a query (see serviceOrSkip for what happens when it does not). */
export function pgAvailable(url: string = TEST_DATABASE_URL): Promise<boolean> {
  return serviceOrSkip(`postgres at ${redactPassword(url)}`, async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      await client.query('select 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}

// Connection errors are often AggregateErrors (IPv4 and IPv6 both refused) with an empty message.
function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(describeError).join('; ');
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return error.message || code || error.name;
  }
  return String(error);
}

function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable database URL)';
  }
}

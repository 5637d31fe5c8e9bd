import type { Kysely } from 'kysely';

/**
 * The database a migration runs against. Untyped on purpose: a migration describes the schema as it was at its
 * key, which the application's current table types no longer match once a later migration changes it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema by design
export type AnyDb = Kysely<any>;

// GET /datasets/stats: the stored chunks added up, in total and by country and by category.
import type { Database } from '../ports/database.js';

export function createDatasetStats(deps: { database: Database }) {
  const { database } = deps;

  return async function stats() {
    const base = database.db.selectFrom('dataset_chunks').where('status', '=', 'stored');
    const partitions = base.select(['country', 'category', 'date']).groupBy(['country', 'category', 'date']);
    const [totals, byCountry, byCategory] = await Promise.all([
      base
        .select((eb) => [
          eb.fn.countAll().as('chunks'),
          eb.fn.sum('record_count').as('records'),
          eb.fn.sum('bytes').as('bytes'),
          // Partitions counted as the groups of their three columns, not as distinct concat(country, '/', …)
          // keys: PostgreSQL cannot type concat()'s parameters ("could not determine data type of parameter").
          eb
            .selectFrom(partitions.as('stored_partitions'))
            .select((sub) => sub.fn.countAll().as('n'))
            .as('partitions'),
          eb.fn.count('country').distinct().as('countries'),
          eb.fn.max('created_at').as('last_modified'),
        ])
        .executeTakeFirstOrThrow(),
      base
        .select((eb) => [
          'country',
          eb.fn.countAll().as('chunks'),
          eb.fn.sum('record_count').as('records'),
          eb.fn.sum('bytes').as('bytes'),
        ])
        .groupBy('country')
        .orderBy('country')
        .execute(),
      base
        .select((eb) => [
          'category',
          eb.fn.countAll().as('chunks'),
          eb.fn.sum('record_count').as('records'),
          eb.fn.sum('bytes').as('bytes'),
        ])
        .groupBy('category')
        .orderBy('category')
        .execute(),
    ]);
    const numbers = (r: { chunks: unknown; records: unknown; bytes: unknown }) => ({
      chunks: Number(r.chunks),
      records: Number(r.records ?? 0),
      bytes: Number(r.bytes ?? 0),
    });
    return {
      totals: {
        ...numbers(totals),
        partitions: Number(totals.partitions),
        countries: Number(totals.countries),
        last_modified: totals.last_modified ?? null,
      },
      by_country: byCountry.map((r) => ({ country: r.country, ...numbers(r) })),
      by_category: byCategory.map((r) => ({ category: r.category, ...numbers(r) })),
    };
  };
}

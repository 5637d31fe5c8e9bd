import type { Migration } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * The publication rate as a plain number beside the freshness JSON, so the seed list sorts by it (`sort=-rate`)
 * in both databases. Backfilled from the JSON already stored: parsed here, a page at a time, rather than with
 * each dialect's JSON functions.
 */
export const seedRate: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('seeds').addColumn('items_per_day', 'double precision').execute();
    await db.schema.createIndex('seeds_items_per_day').on('seeds').column('items_per_day').execute();
    let after = '';
    for (;;) {
      const rows: Array<{ seed_id: string; freshness: string }> = await db
        .selectFrom('seeds')
        .select(['seed_id', 'freshness'])
        .where('freshness', 'is not', null)
        .where('seed_id', '>', after)
        .orderBy('seed_id')
        .limit(500)
        .execute();
      for (const row of rows) {
        const rate = ratePerDay(row.freshness);
        if (rate !== null)
          await db
            .updateTable('seeds')
            .set({ items_per_day: rate })
            .where('seed_id', '=', row.seed_id)
            .execute();
      }
      const last = rows.at(-1);
      if (!last || rows.length < 500) return;
      after = last.seed_id;
    }
  },
};

/** items_per_day of a stored freshness JSON, or null (unparsable, absent, not a finite number). */
export function ratePerDay(freshness: string | null | undefined): number | null {
  if (!freshness) return null;
  try {
    const rate = (JSON.parse(freshness) as { items_per_day?: unknown } | null)?.items_per_day;
    return typeof rate === 'number' && Number.isFinite(rate) ? rate : null;
  } catch {
    return null;
  }
}

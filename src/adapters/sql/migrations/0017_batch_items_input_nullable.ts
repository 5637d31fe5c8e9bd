import { type Migration, PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * `batch_items.input` may be null: a research chunk's answers store no copy of their input, which is the chunk's
 * own item (`batch_chunks.items` at `item_index - item_offset`, written with the batch and never changed), and
 * every reader rebuilds it from there (services/item-inputs.ts; docs/performance.md, "Fifth pass"). PostgreSQL
 * drops the constraint; SQLite cannot, so the table is rebuilt as it was but for that column, in one transaction
 * (Kysely runs SQLite's migrations outside one), so a crash leaves it whole either way.
 */
export const batchItemsInputNullable: Migration = {
  async up(db: AnyDb) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`alter table batch_items alter column input drop not null`.execute(db);
      return;
    }
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable('batch_items_0017')
        .addColumn('batch_id', 'text', (c) => c.notNull())
        .addColumn('item_index', 'integer', (c) => c.notNull())
        .addColumn('chunk_no', 'integer', (c) => c.notNull())
        .addColumn('input', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text')
        .addColumn('reason', 'text')
        .addColumn('result', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('batch_items_pk', ['batch_id', 'item_index'])
        .execute();
      await sql`insert into batch_items_0017 (batch_id, item_index, chunk_no, input, status, outcome, reason, result, updated_at)
        select batch_id, item_index, chunk_no, input, status, outcome, reason, result, updated_at from batch_items`.execute(
        trx,
      );
      await trx.schema.dropTable('batch_items').execute();
      await trx.schema.alterTable('batch_items_0017').renameTo('batch_items').execute();
      await trx.schema
        .createIndex('batch_items_status')
        .on('batch_items')
        .columns(['batch_id', 'status', 'item_index'])
        .execute();
    });
  },
};

// Migration 0017 on both databases: `batch_items.input` becomes nullable, every row stored before it kept as it
// was (SQLite rebuilds the table), its primary key and status index still there; and a row with no input of its
// own reads back its chunk's item through readItemInputs, as one that holds it does.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { BatchItemTable } from '../../src/ports/database.js';
import { readItemInputs } from '../../src/services/item-inputs.js';
import { migrateTo, migrationDialects, openedPerTest } from '../support/migration-dialects.js';

const AT = '2026-01-01T00:00:00.000Z';
const CHUNK_ITEMS = ['https://a.sg/', { url: 'https://b.sg/', note: 'x' }, 'not a url'];

function itemRow(index: number, input: string | null): BatchItemTable {
  return {
    batch_id: 'b1',
    item_index: index,
    chunk_no: 2,
    input,
    status: index === 12 ? 'failed' : 'succeeded',
    outcome: 'new',
    reason: null,
    result: index === 10 ? '{"normalized_url":"https://a.sg/"}' : null,
    updated_at: AT,
  };
}

const dialects = await migrationDialects('seedbed_items_input');

for (const [name, available, open] of dialects) {
  describe(`batch_items.input on ${name}`, () => {
    const openDatabase = openedPerTest(open);

    it.skipIf(!available)(
      'migration 0017 keeps every stored row and lets a new one hold no input',
      async () => {
        const opened = openDatabase();
        const { database } = opened;
        await migrateTo(opened, '0016_seed_filter_totals');
        const before = CHUNK_ITEMS.map((item, i) => itemRow(10 + i, JSON.stringify(item)));
        await database.db.insertInto('batch_items').values(before).execute();
        await expect(
          database.db.insertInto('batch_items').values(itemRow(20, null)).execute(),
        ).rejects.toThrow();
        await database.migrate();
        const kept = await database.db.selectFrom('batch_items').selectAll().orderBy('item_index').execute();
        expect(
          kept.map((r) => ({ ...r, item_index: Number(r.item_index), chunk_no: Number(r.chunk_no) })),
        ).toEqual(before);
        await database.db.insertInto('batch_items').values(itemRow(13, null)).execute();
        // The primary key still refuses a second row for an index, and the status index is still there.
        await expect(
          database.db.insertInto('batch_items').values(itemRow(13, null)).execute(),
        ).rejects.toThrow();
        const indexes =
          database.dialect === 'postgres'
            ? await sql<{
                name: string;
              }>`select indexname as name from pg_indexes where tablename = 'batch_items'`.execute(
                database.db,
              )
            : await sql<{
                name: string;
              }>`select name from sqlite_master where type = 'index' and tbl_name = 'batch_items'`.execute(
                database.db,
              );
        expect(indexes.rows.map((r) => r.name)).toContain('batch_items_status');
      },
    );

    it.skipIf(!available)(
      'reads an item with no input of its own as its chunk item, one that holds it as stored',
      async () => {
        const { database } = openDatabase();
        await database.migrate();
        await database.db
          .insertInto('batch_chunks')
          .values({
            batch_id: 'b1',
            chunk_no: 2,
            queue: 'RESEARCH_QUEUE',
            status: 'succeeded',
            items: JSON.stringify(CHUNK_ITEMS),
            item_offset: 10,
            attempts: 1,
            last_error: null,
            started_at: AT,
            finished_at: AT,
          })
          .execute();
        await database.db
          .insertInto('batch_items')
          .values([itemRow(10, null), itemRow(11, null), itemRow(12, JSON.stringify('stored apart'))])
          .execute();
        const rows = await database.db.selectFrom('batch_items').selectAll().orderBy('item_index').execute();
        expect(await readItemInputs(database.db, 'b1', rows)).toEqual([
          CHUNK_ITEMS[0],
          CHUNK_ITEMS[1],
          'stored apart',
        ]);
        // A row whose chunk holds no item at its index is an error, never a made-up input.
        await expect(
          readItemInputs(database.db, 'b1', [{ item_index: 13, chunk_no: 2, input: null }]),
        ).rejects.toThrow(/no input/);
      },
    );
  });
}

import { type Migration, PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * The seed list's `language` filter as an index walk in every order (docs/databases.md, "The seed list: paging and
 * indexes"): `seed_languages` holds a row per seed and code of its `language_codes` (each code and its primary
 * subtag), with the seed's status, country and order keys beside it, so a language (with a status, with a status
 * and a country) is an exact prefix of an index that ends in the list's order. Triggers on `seeds` keep it in the
 * writing transaction, whoever writes, as they keep `seed_totals`.
 */
export const seedLanguages: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('seed_languages')
      .addColumn('seed_id', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('rate_rank', 'double precision', (c) => c.notNull())
      // Led by the seed: the triggers replace a seed's rows by its id.
      .addPrimaryKeyConstraint('seed_languages_pk', ['seed_id', 'language'])
      .execute();
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await sql
      .raw(`insert into seed_languages (seed_id, language, status, country, created_at, rate_rank)
        select distinct seeds.seed_id, codes.value, seeds.status, seeds.country, seeds.created_at, seeds.rate_rank
        from seeds, ${postgres ? postgresCodes('seeds') : sqliteCodes('seeds')}
        where seeds.language_codes is not null and codes.value <> ''`)
      .execute(db);
    for (const [name, keys] of SEED_LANGUAGE_INDEXES)
      await db.schema
        .createIndex(name)
        .on('seed_languages')
        .columns([...keys])
        .execute();
    if (postgres) await postgresTriggers(db);
    else await sqliteTriggers(db);
  },
};

/**
 * The walks of a language, as `seeds` has them without one: with a status and a country, with a status, and alone,
 * each in the list's three orders (seed id, `found`, `-rate`) and ending in the seed id.
 */
export const SEED_LANGUAGE_INDEXES = (['status_country_', 'status_', ''] as const).flatMap((lead) => {
  const leading = [
    'language',
    ...(lead === '' ? [] : lead === 'status_' ? ['status'] : ['status', 'country']),
  ];
  return [
    [`seed_languages_${lead}seed`, [...leading, 'seed_id']],
    [`seed_languages_${lead}found`, [...leading, 'created_at', 'seed_id']],
    [`seed_languages_${lead}rate`, [...leading, 'rate_rank', 'seed_id']],
  ] as const;
});

/**
 * The codes of `,fr,fr-ca,` as rows `codes.value`. SQLite has no split (and no WITH in a trigger): the list
 * is made a JSON array for json_each; a quote or backslash (never in a tag, and never matched by the filter, which
 * takes [a-z0-9-] only) is dropped so the array always parses and a write never fails on it.
 */
function sqliteCodes(row: string): string {
  const codes = `replace(replace(trim(${row}.language_codes, ','), '"', ''), '\\', '')`;
  return `json_each('["' || replace(${codes}, ',', '","') || '"]') as codes`;
}

function postgresCodes(row: string): string {
  return `unnest(string_to_array(trim(both ',' from ${row}.language_codes), ',')) as codes (value)`;
}

async function sqliteTriggers(db: AnyDb) {
  const insertRows = `insert into seed_languages (seed_id, language, status, country, created_at, rate_rank)
    select distinct new.seed_id, codes.value, new.status, new.country, new.created_at, new.rate_rank
    from ${sqliteCodes('new')} where new.language_codes is not null and codes.value <> '';`;
  await sql
    .raw(`create trigger seed_languages_insert after insert on seeds
        when new.language_codes is not null begin ${insertRows} end`)
    .execute(db);
  await sql
    .raw(`create trigger seed_languages_delete after delete on seeds begin
      delete from seed_languages where seed_id = old.seed_id; end`)
    .execute(db);
  // New codes: the seed's rows again.
  await sql
    .raw(`create trigger seed_languages_codes after update of seed_id, language_codes on seeds
      when old.seed_id is not new.seed_id or old.language_codes is not new.language_codes begin
      delete from seed_languages where seed_id = old.seed_id; ${insertRows} end`)
    .execute(db);
  // The same codes with a new status, country or order key: that column of its rows, one trigger a column, so an
  // update touches only the indexes that hold what changed (a contract run moves the rate: three of the ten).
  for (const column of ['status', 'country', 'created_at', 'rate_rank'])
    await sql
      .raw(`create trigger seed_languages_${column} after update of ${column} on seeds
        when old.${column} is not new.${column} begin
        update seed_languages set ${column} = new.${column} where seed_id = new.seed_id; end`)
      .execute(db);
}

async function postgresTriggers(db: AnyDb) {
  await sql
    .raw(`create function seed_languages_track() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.seed_id = new.seed_id
        and old.language_codes is not distinct from new.language_codes then
        if old.status <> new.status or old.country <> new.country or old.created_at <> new.created_at
          or old.rate_rank <> new.rate_rank then
          update seed_languages set status = new.status, country = new.country, created_at = new.created_at,
            rate_rank = new.rate_rank where seed_id = new.seed_id;
        end if;
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        delete from seed_languages where seed_id = old.seed_id;
      end if;
      if tg_op in ('UPDATE', 'INSERT') and new.language_codes is not null then
        insert into seed_languages (seed_id, language, status, country, created_at, rate_rank)
          select distinct new.seed_id, codes.value, new.status, new.country, new.created_at, new.rate_rank
          from ${postgresCodes('new')} where codes.value <> '';
      end if;
      return null;
    end $$`)
    .execute(db);
  await sql`create trigger seeds_languages after insert or delete
    or update of seed_id, language_codes, status, country, created_at, rate_rank on seeds
    for each row execute function seed_languages_track()`.execute(db);
}

import type { Migration } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * Discovery (docs/discovery.md): the news verdict and country guess on every seed, the candidates (sites seen
 * but not seeds), who cites them, when each citing source was last read for links, and the steps of a discovery
 * batch already fanned out (so a step is added once, whichever chunk finishes last).
 */
export const discovery: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('seeds').addColumn('news', 'text').execute();
    await db.schema.alterTable('seeds').addColumn('news_verdict', 'text').execute();
    await db.schema.alterTable('seeds').addColumn('country_guess', 'text').execute();
    // The drafts list filters by verdict in seed id order.
    await db.schema
      .createIndex('seeds_status_news_verdict')
      .on('seeds')
      .columns(['status', 'news_verdict', 'seed_id'])
      .execute();

    await db.schema
      .createTable('candidates')
      .addColumn('domain', 'text', (c) => c.primaryKey())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('news', 'text')
      .addColumn('news_verdict', 'text')
      .addColumn('score', 'double precision')
      .addColumn('country_guess', 'text')
      .addColumn('languages', 'text', (c) => c.notNull())
      .addColumn('citations', 'integer', (c) => c.notNull())
      .addColumn('feeds_found', 'integer')
      .addColumn('sitemap', 'text')
      .addColumn('robots_allowed', 'integer')
      .addColumn('alive', 'integer')
      .addColumn('qualification', 'text')
      .addColumn('sources', 'text', (c) => c.notNull())
      .addColumn('first_seen_at', 'text', (c) => c.notNull())
      .addColumn('last_checked_at', 'text')
      .addColumn('reject_reason', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('decided_at', 'text')
      .execute();
    for (const [name, columns] of [
      ['candidates_country_state_score', ['country', 'state', 'score', 'domain']],
      ['candidates_country_state_citations', ['country', 'state', 'citations', 'domain']],
      ['candidates_state_score', ['state', 'score', 'domain']],
      ['candidates_first_seen', ['first_seen_at', 'domain']],
    ] as const) {
      await db.schema
        .createIndex(name)
        .on('candidates')
        .columns([...columns])
        .execute();
    }

    await db.schema
      .createTable('candidate_citations')
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('citing', 'text', (c) => c.notNull())
      .addColumn('citing_country', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('anchor', 'text', (c) => c.notNull())
      .addColumn('found_in', 'text', (c) => c.notNull())
      .addColumn('seen_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('candidate_citations_pk', ['domain', 'citing'])
      .execute();
    await db.schema
      .createIndex('candidate_citations_citing')
      .on('candidate_citations')
      .column('citing')
      .execute();

    await db.schema
      .createTable('citing_sources')
      .addColumn('citing', 'text', (c) => c.primaryKey())
      .addColumn('read_at', 'text', (c) => c.notNull())
      .addColumn('outlinks', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('discovery_steps')
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('step', 'text', (c) => c.notNull())
      .addColumn('items', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('discovery_steps_pk', ['batch_id', 'step'])
      .execute();
  },
};

// SQLite's plans of the queries a service really sends: a Kysely plugin records them on their way to the database,
// and `explain query plan` is asked of each recorded select afterwards (list-query-plans, batch-summary tests).
import {
  CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { Database } from '../../src/ports/database.js';

/** Keeps every query sent through the Kysely instance it is plugged into (`db.withPlugin(recorder)`). */
export class QueryRecorder implements KyselyPlugin {
  nodes: RootOperationNode[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.nodes.push(args.node);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** SQLite's plan of every select the recorder holds, one line per step (`a | b`), with the SQL it is for. */
export async function recordedPlans(
  database: Database,
  recorder: QueryRecorder,
): Promise<Array<{ sql: string; plan: string }>> {
  const executor = database.db.getExecutor();
  const plans = [];
  for (const node of recorder.nodes) {
    const compiled = executor.compileQuery(node, { queryId: 'plan' });
    if (!/^select/i.test(compiled.sql)) continue;
    const plan = await database.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    plans.push({ sql: compiled.sql, plan: plan.rows.map((r) => r.detail).join(' | ') });
  }
  return plans;
}

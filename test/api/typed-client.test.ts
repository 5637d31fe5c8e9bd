// A typed client can be generated from /openapi.json (docs/design.md §7): openapi-typescript turns the document into
// types, and a small client written against them compiles — success bodies, problems, and a seed read with GET
// passed as the body of POST /seeds. Needs the dev dependency openapi-typescript@7.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiSeedbed } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';
import { serviceOrSkip } from '../support/services.js';

type OpenApiTs = {
  default: (schema: object) => Promise<ts.Node[]>;
  astToString: (ast: ts.Node[]) => string;
};
let openapiTs: OpenApiTs | undefined;
const available = await serviceOrSkip(
  'openapi-typescript (dev dependency openapi-typescript@7)',
  async () => {
    openapiTs = (await import(/* @vite-ignore */ 'openapi-typescript' as string)) as OpenApiTs;
  },
);

const CLIENT = `
import type { components, paths } from './schema.js';

type Json<P extends keyof paths, M extends keyof paths[P], S extends number, C extends string = 'application/json'> =
  paths[P][M] extends { responses: infer R }
    ? S extends keyof R
      ? R[S] extends { content: infer B }
        ? C extends keyof B ? B[C] : never
        : never
      : never
    : never;

type Seed = components['schemas']['Seed'];
type SeedPage = Json<'/api/v1/seeds', 'get', 200>;
type Created = Json<'/api/v1/queues/research', 'post', 202>;
type NotFound = Json<'/api/v1/seeds/{seedId}', 'get', 404, 'application/problem+json'>;
type CreateBody = NonNullable<paths['/api/v1/seeds']['post']['requestBody']>['content']['application/json'];

declare const page: SeedPage;
const first: Seed | undefined = page.data[0];
const total: number = page.pagination.total;
declare const batch: Created;
const batchId: string = batch.batchId;
const progress: number = batch.chunks.succeeded;
declare const problem: NotFound;
const code: string = problem.code;
const fields: string[] = (problem.errors ?? []).map((e) => e.path);

// The round trip, typed: a seed as GET answers it is a valid create body.
declare const read: Seed;
const again: CreateBody = read;

// The types are specific, not any.
// @ts-expect-error a seed id is a string
const wrong: number = read.seed_id;
// @ts-expect-error statuses are a closed set
const status: Seed['status'] = 'live';

export { again, batchId, code, fields, first, progress, status, total, wrong };
`;

describe.skipIf(!available)('a typed client generated from /openapi.json', () => {
  let t: TestSeedbed;
  let dir: string;
  beforeAll(async () => {
    t = await createApiSeedbed();
    dir = await mkdtemp(join(tmpdir(), 'seedbed-client-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('generates types and compiles a client against them without an error', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const generator = openapiTs as OpenApiTs;
    const types = generator.astToString(await generator.default(document));
    expect(types).toContain('"/api/v1/seeds/{seedId}"');
    await writeFile(join(dir, 'schema.ts'), types);
    await writeFile(join(dir, 'client.ts'), CLIENT);
    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});

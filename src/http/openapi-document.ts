// The OpenAPI document's components, tidied: the zod provider emits an input and an output variant of every
// named schema; a generated client should see only the ones operations use, each under its plain name.
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';

type Document = ReturnType<typeof jsonSchemaTransformObject>;
type Json = unknown;

const REF = '#/components/schemas/';
const INPUT_SUFFIX = 'Input';

function refsIn(value: Json, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(REF))
        into.add(child.slice(REF.length));
      else refsIn(child, into);
    }
  }
  return into;
}

function renameRefs(value: Json, names: ReadonlyMap<string, string>): Json {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, names));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(REF)) {
        const name = child.slice(REF.length);
        return [key, `${REF}${names.get(name) ?? name}`];
      }
      return [key, renameRefs(child, names)];
    }),
  );
}

export function openApiTransformObject(input: Parameters<typeof jsonSchemaTransformObject>[0]): Document {
  const document = jsonSchemaTransformObject(input) as Document & {
    paths?: Json;
    components?: { schemas?: Record<string, Json> };
  };
  const schemas = document.components?.schemas;
  if (!schemas) return document;
  // Keep what the operations reach, directly or through other schemas.
  const used = refsIn(document.paths, new Set());
  for (const queue = [...used]; queue.length > 0; ) {
    for (const name of refsIn(schemas[queue.pop() as string], new Set())) {
      if (!used.has(name)) {
        used.add(name);
        queue.push(name);
      }
    }
  }
  // An input variant whose plain name is free takes it (request bodies: SeedCreateRequestInput → SeedCreateRequest).
  const names = new Map<string, string>();
  for (const name of used) {
    const plain = name.endsWith(INPUT_SUFFIX) ? name.slice(0, -INPUT_SUFFIX.length) : null;
    if (plain && !used.has(plain)) names.set(name, plain);
  }
  const kept = Object.fromEntries(
    [...used].sort().map((name) => [names.get(name) ?? name, renameRefs(schemas[name], names)]),
  );
  return {
    ...document,
    paths: renameRefs(document.paths, names),
    components: { ...document.components, schemas: kept },
  } as Document;
}

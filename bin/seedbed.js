#!/usr/bin/env node
// Installed entry point: runs the compiled CLI in dist/ (built by `npm run build`, on install in a checkout and
// before packing). No TypeScript at run time: an installed package has no tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!existsSync(compiled)) {
  process.stderr.write(
    `seedbed: ${compiled} is missing: run \`npm run build\` in the checkout (or \`npm run dev -- <command>\` to run the TypeScript source)\n`,
  );
  process.exit(1);
}
await import(pathToFileURL(compiled).href);

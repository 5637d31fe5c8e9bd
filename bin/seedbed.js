#!/usr/bin/env node
// Installed entry point: runs the compiled CLI (npm run build), or the TypeScript source through tsx in a checkout.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}

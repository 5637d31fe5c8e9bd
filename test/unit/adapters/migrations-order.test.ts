// The migration list is read by people adding the next one: it stays in key order, and each module is named
// after the key it is registered under, so the file for a key is found without reading the index.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../src/adapters/sql/migrations.js';

const folder = fileURLToPath(new URL('../../../src/adapters/sql/migrations/', import.meta.url));

describe('migrations', () => {
  it('are listed in key order', () => {
    const keys = Object.keys(migrations);
    expect(keys).toEqual([...keys].sort());
  });

  it('have one module per key, named after it', () => {
    const modules = readdirSync(folder)
      .filter((name) => /^\d{4}_/.test(name))
      .map((name) => name.replace(/\.ts$/, ''));
    expect(modules.sort()).toEqual(Object.keys(migrations));
  });
});

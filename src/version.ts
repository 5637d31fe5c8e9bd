// The package version, read once from package.json (the user agent, /health and the OpenAPI document carry it).
import { readFileSync } from 'node:fs';

export const NAME = 'Seedbed API';

export function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

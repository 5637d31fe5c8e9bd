import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeInternet, SITES, startFakeInternet } from '../../fixtures/fake-internet/index.js';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../fixtures/fake-internet/extra-ca-probe.ts', import.meta.url));
const caFile = fileURLToPath(new URL('../../fixtures/fake-internet/certs/ca.pem', import.meta.url));

let net: FakeInternet;
beforeAll(async () => {
  net = await startFakeInternet();
});
afterAll(async () => {
  await net?.close();
});

async function probe(env: NodeJS.ProcessEnv): Promise<{ status?: number; code?: string }> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', script, net.resolveSpec, `https://${SITES.bare}/`],
    {
      env,
      timeout: 30_000,
    },
  );
  return JSON.parse(stdout) as { status?: number; code?: string };
}

describe('trust store without extraCa', () => {
  it('trusts a CA given through NODE_EXTRA_CA_CERTS', async () => {
    const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
    expect(await probe({ ...env, NODE_EXTRA_CA_CERTS: caFile })).toEqual({ status: 200 });
  });

  it('fails with TLS when nothing vouches for the certificate', async () => {
    const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
    expect(await probe(env)).toEqual({ code: 'TLS' });
  });
});

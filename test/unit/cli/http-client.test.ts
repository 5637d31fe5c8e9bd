import { describe, expect, it } from 'vitest';
import { ClientError, clientOptions, createClient, RawBody } from '../../../src/cli/http-client.js';

const answer = (status: number, body: unknown, type = 'application/json') =>
  (async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': type },
    })) as unknown as typeof fetch;

describe('the CLI client', () => {
  it('defaults to the local service on PORT, and takes SEEDBED_URL and SEEDBED_API_KEY', () => {
    expect(clientOptions({})).toEqual({ url: 'http://127.0.0.1:8080' });
    expect(clientOptions({ PORT: '9000' })).toEqual({ url: 'http://127.0.0.1:9000' });
    expect(clientOptions({ SEEDBED_URL: 'https://seeds.example', SEEDBED_API_KEY: 'k' })).toEqual({
      url: 'https://seeds.example',
      key: 'k',
    });
  });

  it('a service that cannot be reached: the address and the likely fix', async () => {
    const refused = (async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      });
    }) as unknown as typeof fetch;
    const call = createClient({ url: 'http://127.0.0.1:1/api' }, refused);
    await expect(call('GET', '/api/v1/seeds')).rejects.toThrow(
      'cannot reach Seedbed at http://127.0.0.1:1 (ECONNREFUSED): is it running? set SEEDBED_URL to its address',
    );
    expect(() => createClient({ url: 'not a url' })).toThrow(ClientError);
  });

  it('401 and 403 say what to do about the key', async () => {
    const unauthorized = { status: 401, code: 'unauthorized', detail: 'send an API key' };
    await expect(createClient({ url: 'http://s' }, answer(401, unauthorized))('GET', '/x')).rejects.toThrow(
      /http:\/\/s answered GET \/x with 401: send an API key\. Set SEEDBED_API_KEY to an API key/,
    );
    await expect(
      createClient({ url: 'http://s', key: 'k' }, answer(401, { ...unauthorized, code: 'invalid_key' }))(
        'GET',
        '/x',
      ),
    ).rejects.toThrow(/The key in SEEDBED_API_KEY is not valid there/);
    await expect(
      createClient({ url: 'http://s', key: 'k' }, answer(403, { status: 403, required_scope: 'write' }))(
        'POST',
        '/x',
        {},
      ),
    ).rejects.toThrow(/lacks the write scope/);
  });

  it('a validation problem lists its fields; an answer that is not JSON is not Seedbed', async () => {
    const problem = {
      status: 400,
      detail: 'bad',
      errors: [{ path: 'body.country', message: 'must be a code' }],
    };
    await expect(createClient({ url: 'http://s' }, answer(400, problem))('POST', '/x', {})).rejects.toThrow(
      'http://s answered POST /x with 400: bad\n  body.country: must be a code',
    );
    await expect(
      createClient({ url: 'http://s' }, answer(200, '<html>', 'text/html'))('GET', '/x'),
    ).rejects.toThrow(/no JSON: is SEEDBED_URL the address of Seedbed\?/);
  });

  it('answers the parsed JSON', async () => {
    expect(await createClient({ url: 'http://s' }, answer(200, { ok: 1 }))('GET', '/x')).toEqual({ ok: 1 });
  });

  it('sends a value as JSON, and a raw body as it is under its own content type', async () => {
    const seen: Array<{ type: string | undefined; body: unknown }> = [];
    const record = (async (_url: URL, init: RequestInit) => {
      seen.push({ type: (init.headers as Record<string, string>)['content-type'], body: init.body });
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
    const call = createClient({ url: 'http://s' }, record);
    await call('POST', '/x', { a: 1 });
    const bytes = Buffer.from('domain\nzeit.de\n');
    await call('POST', '/y', new RawBody(bytes, 'text/csv; charset=utf-8'));
    await call('GET', '/z');
    expect(seen).toEqual([
      { type: 'application/json', body: '{"a":1}' },
      { type: 'text/csv; charset=utf-8', body: bytes },
      { type: undefined, body: undefined },
    ]);
  });
});

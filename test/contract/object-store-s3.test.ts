// Runs the ObjectStore contract against the S3 adapter on a real S3 API (s3rver, a child process), and checks
// the conditional-write paths s3rver cannot exercise against a tiny fake server that enforces If-None-Match.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createS3ObjectStore, parseS3Url } from '../../src/adapters/s3-object-store.js';
import { BackendUnavailableError } from '../../src/domain/errors.js';
import { ObjectExistsError, type ObjectInfo } from '../../src/ports/object-store.js';
import { type S3rverHandle, startS3rver } from '../support/s3rver.js';
import { serviceOrSkip } from '../support/services.js';
import { runObjectStoreContract } from './object-store.contract.js';

let server: S3rverHandle | undefined;
const s3rverUp = await serviceOrSkip('s3rver (S3 test server, child process)', async () => {
  server = await startS3rver();
});
afterAll(async () => {
  await server?.stop();
});

function s3rverStore(prefix: string) {
  if (!server) throw new Error('s3rver is not running');
  const { endpoint, bucket, region, accessKeyId, secretAccessKey } = server;
  return createS3ObjectStore({ endpoint, bucket, region, accessKeyId, secretAccessKey, prefix });
}

describe.skipIf(!s3rverUp)('S3 adapter on s3rver', () => {
  runObjectStoreContract(
    's3 (s3rver)',
    async () => {
      const store = s3rverStore(`contract/${randomUUID()}`);
      // Objects go with s3rver's temp folder when the server stops.
      return { store, cleanup: () => store.close() };
    },
    {
      concurrentIfAbsent:
        's3rver ignores If-None-Match on writes, so only the HEAD pre-check runs; AWS S3, R2 and MinIO enforce it',
      byteOrderAcrossFolders:
        "s3rver lists in its folders' file-name order ('x/1' before 'x-1'); AWS S3, R2 and MinIO list in byte order",
    },
  );

  it('stores keys under its prefix and lists them back without it', async () => {
    const root = `layout/${randomUUID()}`;
    const nested = s3rverStore(`${root}/seedbed/`);
    const whole = s3rverStore('');
    try {
      await nested.put('raw/a.json', 'a');
      expect(await keys(whole.list(`${root}/`))).toEqual([`${root}/seedbed/raw/a.json`]);
      expect(await keys(nested.list(''))).toEqual(['raw/a.json']);
      expect(await nested.head('raw/a.json')).toMatchObject({ key: 'raw/a.json', size: 1 });
    } finally {
      await nested.close();
      await whole.close();
    }
  });

  it('fails ping for a missing bucket', async () => {
    if (!server) throw new Error('s3rver is not running');
    const { endpoint, region, accessKeyId, secretAccessKey } = server;
    const store = createS3ObjectStore({
      endpoint,
      region,
      accessKeyId,
      secretAccessKey,
      bucket: 'no-such-bucket',
      prefix: '',
    });
    await expect(store.ping()).rejects.toThrow();
    await store.close();
  });
});

describe('S3 adapter ping', () => {
  it('fails when nothing listens at the endpoint', async () => {
    const endpoint = await closedPortEndpoint();
    const store = createS3ObjectStore({
      endpoint,
      bucket: 'b-1',
      prefix: '',
      accessKeyId: 'x',
      secretAccessKey: 'y',
    });
    await expect(store.ping()).rejects.toThrow();
    await store.close();
  });

  it('reports an unreachable server as BackendUnavailableError, for reads and writes alike', async () => {
    const store = createS3ObjectStore({
      endpoint: await closedPortEndpoint(),
      bucket: 'b-1',
      prefix: '',
      accessKeyId: 'x',
      secretAccessKey: 'y',
    });
    try {
      await expect(store.put('raw/a.json', '{}', { ifAbsent: true })).rejects.toBeInstanceOf(
        BackendUnavailableError,
      );
      await expect(store.get('raw/a.json')).rejects.toBeInstanceOf(BackendUnavailableError);
      await expect(store.ping()).rejects.toThrow(/object store is unavailable/);
    } finally {
      await store.close();
    }
  });

  it('passes an answer through unchanged: a missing bucket is not an outage', async () => {
    if (!server) return; // needs s3rver; the suite above reports why it is missing
    const { endpoint, region, accessKeyId, secretAccessKey } = server;
    const store = createS3ObjectStore({
      endpoint,
      region,
      accessKeyId,
      secretAccessKey,
      bucket: 'no-such-bucket',
      prefix: '',
    });
    try {
      const error = await store.ping().catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(BackendUnavailableError);
    } finally {
      await store.close();
    }
  });
});

describe('parseS3Url', () => {
  it.each([
    ['s3://bucket/some/prefix', { bucket: 'bucket', prefix: 'some/prefix' }],
    ['s3://bucket/some/prefix/', { bucket: 'bucket', prefix: 'some/prefix' }],
    ['s3://my.bucket-1', { bucket: 'my.bucket-1', prefix: '' }],
    ['s3://my.bucket-1/', { bucket: 'my.bucket-1', prefix: '' }],
  ])('parses %s', (url, expected) => {
    expect(parseS3Url(url)).toEqual(expected);
  });

  it.each([
    'https://bucket/x',
    's3://',
    's3://Bucket/x',
    's3://b/x',
    's3://bucket/a//b',
    's3://bucket/../x',
    's3://bucket/x?y',
  ])('refuses %s', (url) => {
    expect(() => parseS3Url(url)).toThrow();
  });
});

// A write loses on a server that enforces If-None-Match although the HEAD pre-check found nothing: the race
// that only the conditional header closes. Answers are scripted; the requests are recorded.
describe('S3 adapter errors without a body', () => {
  it('names the command and the HTTP status of a bare error answer instead of "UnknownError"', async () => {
    // What s3rver answers to HeadBucket when an object in the bucket has unreadable metadata: a bare 500.
    await withStoreAnsweredBy(
      (_req, res) => res.writeHead(500).end(),
      async (store) => {
        await expect(store.ping()).rejects.toThrow(
          'HeadBucketCommand answered HTTP 500 without an error code',
        );
        await expect(store.head('k.json')).rejects.toThrow('HeadObjectCommand answered HTTP 500');
      },
    );
  });
});

describe('S3 adapter conditional writes (fake server enforcing If-None-Match)', () => {
  const SMALL = 'small body';
  const large = () => Readable.from([Buffer.alloc(6 * 1024 * 1024, 7)]); // above the 5 MiB part size

  it.each([
    ['PutObject', () => SMALL, 'PUT /b-1/p/raw/k.json'],
    ['CompleteMultipartUpload', large, 'POST /b-1/p/raw/k.json?uploadId=upload-1'],
  ])('turns a 412 from %s into ObjectExistsError', async (_name, body, conditionalRequest) => {
    await withFakeS3({ status: 412, code: 'PreconditionFailed', existsAfter: true }, async (fake, store) => {
      const error = await store
        .put('raw/k.json', body(), { ifAbsent: true })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ObjectExistsError);
      expect(fake.requests[0]).toMatchObject({ line: 'HEAD /b-1/p/raw/k.json' });
      expect(fake.requests.find((r) => r.line === conditionalRequest)?.ifNoneMatch).toBe('*');
    });
  });

  it('aborts the multipart upload when its completion loses', async () => {
    await withFakeS3({ status: 412, code: 'PreconditionFailed', existsAfter: true }, async (fake, store) => {
      await expect(store.put('raw/k.json', large(), { ifAbsent: true })).rejects.toBeInstanceOf(
        ObjectExistsError,
      );
      expect(fake.requests.map((r) => r.line)).toContain('DELETE /b-1/p/raw/k.json?uploadId=upload-1');
    });
  });

  it('turns a 409 ConditionalRequestConflict into ObjectExistsError when the object is there afterwards', async () => {
    await withFakeS3(
      { status: 409, code: 'ConditionalRequestConflict', existsAfter: true },
      async (_fake, store) => {
        await expect(store.put('raw/k.json', SMALL, { ifAbsent: true })).rejects.toBeInstanceOf(
          ObjectExistsError,
        );
      },
    );
  });

  it('rethrows a 409 ConditionalRequestConflict when the object is still absent (a retryable conflict)', async () => {
    await withFakeS3(
      { status: 409, code: 'ConditionalRequestConflict', existsAfter: false },
      async (_fake, store) => {
        const error = await store
          .put('raw/k.json', SMALL, { ifAbsent: true })
          .catch((caught: unknown) => caught);
        expect(error).not.toBeInstanceOf(ObjectExistsError);
        expect((error as Error).name).toBe('ConditionalRequestConflict');
      },
    );
  });

  it('sends neither a HEAD nor If-None-Match on a plain overwrite', async () => {
    await withFakeS3({ status: 200, code: '', existsAfter: true }, async (fake, store) => {
      await store.put('raw/k.json', SMALL);
      expect(fake.requests).toEqual([{ line: 'PUT /b-1/p/raw/k.json', ifNoneMatch: undefined }]);
    });
  });
});

interface FakeAnswer {
  status: number;
  code: string;
  existsAfter: boolean;
}
interface FakeS3 {
  requests: Array<{ line: string; ifNoneMatch: string | undefined }>;
}

async function withFakeS3(
  answer: FakeAnswer,
  run: (fake: FakeS3, store: ReturnType<typeof createS3ObjectStore>) => Promise<void>,
): Promise<void> {
  const fake: FakeS3 = { requests: [] };
  let exists = false;
  const respond = (req: IncomingMessage, res: ServerResponse): void => {
    const line = `${req.method} ${(req.url ?? '').replace(/[?&]x-id=[^&]*/, '')}`;
    const header = req.headers['if-none-match'];
    fake.requests.push({ line, ifNoneMatch: Array.isArray(header) ? header.join(',') : header });
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'HEAD') {
      res.writeHead(exists ? 200 : 404, exists ? { 'content-length': '1' } : {}).end();
    } else if (req.method === 'POST' && url.searchParams.has('uploads')) {
      xml(
        res,
        200,
        '<InitiateMultipartUploadResult><UploadId>upload-1</UploadId></InitiateMultipartUploadResult>',
      );
    } else if (req.method === 'PUT' && url.searchParams.has('partNumber')) {
      res.writeHead(200, { etag: `"part-${url.searchParams.get('partNumber')}"` }).end();
    } else if (req.method === 'DELETE') {
      res.writeHead(204).end();
    } else if (answer.status === 200) {
      exists = true;
      res.writeHead(200, { etag: '"whole"' }).end();
    } else {
      exists = answer.existsAfter;
      xml(res, answer.status, `<Error><Code>${answer.code}</Code><Message>scripted</Message></Error>`);
    }
  };
  await withStoreAnsweredBy(respond, (store) => run(fake, store));
}

/** An S3 store whose server answers each request (its body read first) with `respond`; both closed after `run`. */
async function withStoreAnsweredBy(
  respond: (req: IncomingMessage, res: ServerResponse) => void,
  run: (store: ReturnType<typeof createS3ObjectStore>) => Promise<void>,
): Promise<void> {
  const http = createServer((req, res) => {
    req.on('end', () => respond(req, res)).resume();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const store = createS3ObjectStore({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'b-1',
    prefix: 'p',
    accessKeyId: 'fake',
    secretAccessKey: 'fake',
  });
  try {
    await run(store);
  } finally {
    await store.close();
    await new Promise((resolve) => http.close(resolve));
  }
}

function xml(res: ServerResponse, status: number, body: string): void {
  res
    .writeHead(status, { 'content-type': 'application/xml' })
    .end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

async function closedPortEndpoint(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

async function keys(items: AsyncIterable<ObjectInfo>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of items) out.push(item.key);
  return out;
}

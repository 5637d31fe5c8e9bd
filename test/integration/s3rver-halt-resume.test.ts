// The S3 test server's halt/resume (support/s3rver.ts), which the backend-outage e2e test relies on: halting
// kills s3rver, and a kill in the middle of a PUT leaves that object's files half written. Resumed as they
// were, every HeadBucket (s3rver lists the bucket to answer it) and every HEAD of that key answered 500 for
// good, so /health/ready stayed 503 after the outage. resume() must bring back only the whole objects.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createS3ObjectStore } from '../../src/adapters/s3-object-store.js';
import { type S3rverHandle, startS3rver } from '../support/s3rver.js';
import { serviceOrSkip } from '../support/services.js';

let server: S3rverHandle | undefined;
const s3rverUp = await serviceOrSkip('s3rver (S3 test server, child process)', async () => {
  server = await startS3rver();
});
afterAll(async () => {
  await server?.stop();
});

describe.skipIf(!s3rverUp)('s3rver halt and resume', () => {
  it('drops a PUT the halt cut short and keeps the whole objects', async () => {
    const { endpoint, bucket, region, accessKeyId, secretAccessKey, directory } = server!;
    const store = createS3ObjectStore({
      endpoint,
      bucket,
      region,
      accessKeyId,
      secretAccessKey,
      prefix: 'cut',
    });
    try {
      await store.put('whole.json', '{"whole":true}', { ifAbsent: true });
      await store.put('cut.json', '{"cut":true}', { ifAbsent: true });
      await server!.halt();
      // Where a kill between s3rver's truncating open and its write leaves the last file of a PUT: empty.
      await writeFile(join(directory, bucket, 'cut', 'cut.json._S3rver_metadata.json'), '');
      await server!.resume();

      await store.ping();
      expect(await store.head('cut.json')).toBeNull();
      const whole = await store.get('whole.json');
      expect(whole && Buffer.concat(await whole.toArray()).toString()).toBe('{"whole":true}');
      // The job that was cut writes its object again, as its retry would.
      await store.put('cut.json', '{"cut":true}', { ifAbsent: true });
      expect((await store.head('cut.json'))?.size).toBe('{"cut":true}'.length);
    } finally {
      await store.close();
    }
  });
});

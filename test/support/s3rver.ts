// Starts s3rver (a pure-JS S3 server) as a child process for tests that need a real S3 API, on a free port
// and a throw-away folder. A child process keeps its OpenSSL flag and its crashes out of the test worker.

import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';

export interface S3rverHandle {
  endpoint: string;
  /** The folder s3rver keeps its buckets in (one subfolder per bucket, one set of files per object). */
  directory: string;
  bucket: string;
  region: string;
  /** s3rver checks signatures against these fixed dummy credentials. */
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
  /** Stops the server but keeps its folder: connections are refused until resume(). */
  halt(): Promise<void>;
  /**
   * Starts the server again on the same port and folder: the bucket and every object whose PUT completed are
   * still there; a PUT the halt cut short is gone, as on S3 (see dropCutWrites).
   */
  resume(): Promise<void>;
}

const BUCKET = 'seedbed-test';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
const REGION = 'us-east-1';
// Generous: only a guard so a wedged child fails the run instead of hanging it; never a test assertion.
const START_GUARD_MS = 30_000;

export async function startS3rver(): Promise<S3rverHandle> {
  const directory = await mkdtemp(join(tmpdir(), 'seedbed-s3rver-'));
  let child = spawnS3rver(directory, 0);
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);

  const halt = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
  };
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    await halt();
    await rm(directory, { recursive: true, force: true });
  };

  try {
    const port = await waitForListening(child);
    const endpoint = `http://127.0.0.1:${port}`;
    await ensureBucket(endpoint);
    const resume = async (): Promise<void> => {
      if (stopped) throw new Error('s3rver was stopped for good');
      await halt();
      await dropCutWrites(directory);
      child = spawnS3rver(directory, port);
      await waitForListening(child);
    };
    return { endpoint, directory, bucket: BUCKET, region: REGION, ...CREDENTIALS, stop, halt, resume };
  } catch (error) {
    await stop();
    throw error;
  }
}

// s3rver keeps an object as three files written one after another, each with a plain (truncating) write:
// KEY._S3rver_object, then KEY._S3rver_object.md5, then KEY._S3rver_metadata.json.
const OBJECT_SUFFIX = '._S3rver_object';

/**
 * Removes the objects whose PUT the halt cut short (SIGTERM mid-write): an object file whose checksum or
 * metadata file is missing, truncated or does not match. s3rver serves such an object as it is — HEAD and GET
 * of its key answer 500 (unparsable metadata) or a truncated body, and so does every HeadBucket, which s3rver
 * answers by listing the bucket — until somebody deletes it by hand. S3 makes a PUT visible whole or not at all,
 * and none of these was acknowledged (s3rver answers once all three files are written), so the client saw the
 * request fail and will retry it: removing them leaves the bucket as S3 would have it after an outage.
 */
async function dropCutWrites(directory: string): Promise<void> {
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) await dropCutWrites(path);
    if (!entry.isFile() || !entry.name.endsWith(OBJECT_SUFFIX)) continue;
    const keyPath = path.slice(0, -OBJECT_SUFFIX.length);
    if (await isWholeObject(path, `${keyPath}._S3rver_metadata.json`)) continue;
    await Promise.all(
      [path, `${path}.md5`, `${keyPath}._S3rver_metadata.json`].map((file) => rm(file, { force: true })),
    );
  }
}

async function isWholeObject(objectPath: string, metadataPath: string): Promise<boolean> {
  try {
    JSON.parse(await readFile(metadataPath, 'utf8'));
    const md5 = (await readFile(`${objectPath}.md5`, 'utf8')).trim();
    return (
      createHash('md5')
        .update(await readFile(objectPath))
        .digest('hex') === md5
    );
  } catch {
    return false; // a file missing or the metadata truncated
  }
}

/**
 * Runs s3rver's own command in a child that ends when its stdin does: the test process holds the other end, so the
 * child goes with it however it ends. A test worker is often ended by a signal, which runs no 'exit' handler, and
 * each test file's s3rver was left running (44 of them after one CI run).
 */
const EXIT_WITH_PARENT =
  "process.stdin.on('end', () => process.exit(0)).on('error', () => process.exit(0)).resume(); require(process.argv[1]);";

function spawnS3rver(directory: string, port: number): ChildProcess {
  const bin = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
  // --openssl-legacy-provider: s3rver encrypts continuation tokens with DES, which OpenSSL 3 only has in
  // the legacy provider; without it every paginated ListObjectsV2 answers 500.
  return spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      '-e',
      EXIT_WITH_PARENT,
      bin,
      '-a',
      '127.0.0.1',
      '-p',
      String(port),
      '-d',
      directory,
      '--configure-bucket',
      BUCKET,
      '--silent',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
}

/** Resolves with the port s3rver prints once it listens ("S3rver listening on 127.0.0.1:PORT"). */
function waitForListening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const finish = (error: Error | null, port?: number): void => {
      clearTimeout(guard);
      child.stdout?.removeListener('data', onStdout);
      child.removeListener('exit', onExit);
      child.removeListener('error', onError);
      // Keep draining so a chatty child can never block on a full pipe.
      child.stdout?.resume();
      if (error) reject(error);
      else resolve(port ?? 0);
    };
    const onStdout = (data: Buffer): void => {
      stdout += data.toString();
      const match = /listening on [^\s:]+:(\d+)/.exec(stdout);
      if (match) finish(null, Number(match[1]));
    };
    const onExit = (code: number | null, signal: string | null): void => {
      finish(new Error(`s3rver exited before listening (code ${code}, signal ${signal}): ${stderr.trim()}`));
    };
    const onError = (error: Error): void => finish(error);
    const guard = setTimeout(
      () => finish(new Error(`s3rver did not report a port within ${START_GUARD_MS} ms: ${stderr.trim()}`)),
      START_GUARD_MS,
    );
    child.stdout?.on('data', onStdout);
    child.stderr?.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-4000);
    });
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

// --configure-bucket already creates it; checking through the SDK also proves the server answers S3 calls.
async function ensureBucket(endpoint: string): Promise<void> {
  const client = new S3Client({ endpoint, region: REGION, credentials: CREDENTIALS, forcePathStyle: true });
  try {
    await client.send(new HeadBucketCommand({ Bucket: BUCKET }));
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== 404) throw error;
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  } finally {
    client.destroy();
  }
}

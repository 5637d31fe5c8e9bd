// S3-compatible object store (AWS S3, Cloudflare R2, MinIO, s3rver in tests): the scale-out backend.
// It only moves bytes; what create-only (ifAbsent) guarantees on each server is in docs/object-storage.md.

import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type PutObjectCommandInput,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { BackendUnavailableError } from '../domain/errors.js';
import {
  assertSafeKey,
  type ObjectBody,
  ObjectExistsError,
  type ObjectInfo,
  type ObjectStore,
  type PutOptions,
} from '../ports/object-store.js';
import { isObjectStoreUnavailable } from './backend-errors.js';

export interface S3ObjectStoreConfig {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing slash; '' stores at the bucket root. */
  prefix: string;
  /** Set for anything but AWS itself (R2, MinIO, s3rver). */
  endpoint?: string;
  region?: string;
  /** Both or neither; without them the SDK's default chain (env, profile, instance role) applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Defaults to true when an endpoint is given: most non-AWS servers have no per-bucket host names. */
  forcePathStyle?: boolean;
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_URL = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/;

/** `s3://bucket/some/prefix` → `{ bucket: 'bucket', prefix: 'some/prefix' }`; a trailing slash is dropped. */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const match = S3_URL.exec(url);
  if (!match) throw new Error(`not an s3:// URL: ${JSON.stringify(url)} (expected s3://bucket/prefix)`);
  const bucket = match[1] ?? '';
  if (!BUCKET_NAME.test(bucket)) throw new Error(`invalid S3 bucket name in ${JSON.stringify(url)}`);
  const prefix = normalisePrefix(match[2] ?? '');
  return { bucket, prefix };
}

export function createS3ObjectStore(config: S3ObjectStoreConfig): ObjectStore {
  const bucket = config.bucket;
  if (!BUCKET_NAME.test(bucket)) throw new Error(`invalid S3 bucket name: ${JSON.stringify(bucket)}`);
  const root = normalisePrefix(config.prefix);
  const rootWithSlash = root === '' ? '' : `${root}/`;
  const client = new S3Client(clientConfig(config));
  // Outermost, so it sees what is left after the SDK's own retries: an S3 server that cannot be reached is
  // a BackendUnavailableError (the job is handed back unspent); an answer (404, 412, 403) passes unchanged.
  client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (isObjectStoreUnavailable(error)) throw new BackendUnavailableError('object store', error);
        throw withBareStatusNamed(error, context.commandName ?? 'S3 request');
      }
    },
    { step: 'initialize', name: 'seedbedBackendUnavailable' },
  );

  const objectKey = (key: string): string => {
    assertSafeKey(key);
    return rootWithSlash + key;
  };

  async function headObject(fullKey: string): Promise<{ size: number; lastModified: Date } | null> {
    try {
      const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: fullKey }));
      return { size: out.ContentLength ?? 0, lastModified: out.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  // True when a conditional write lost to an existing object. A 409 ConditionalRequestConflict only means
  // another write to the key was in flight; the object counts as taken only if it is there now,
  // otherwise the 409 is rethrown for the job runner to retry.
  async function lostConditionalWrite(error: unknown, fullKey: string): Promise<boolean> {
    const status = httpStatus(error);
    if (status === 412 || errorName(error) === 'PreconditionFailed') return true;
    if (status === 409 && errorName(error) === 'ConditionalRequestConflict') {
      return (await headObject(fullKey)) !== null;
    }
    return false;
  }

  return {
    kind: 's3',

    async put(key: string, body: ObjectBody, options: PutOptions = {}): Promise<void> {
      const fullKey = objectKey(key);
      // Servers that ignore If-None-Match (s3rver, some older ones) would silently overwrite: this HEAD
      // catches the common case there; on AWS/R2/MinIO the conditional header below closes the race.
      if (options.ifAbsent && (await headObject(fullKey)) !== null) throw new ObjectExistsError(key);
      const params: PutObjectCommandInput = {
        Bucket: bucket,
        Key: fullKey,
        ...(options.contentType ? { ContentType: options.contentType } : {}),
        ...(options.ifAbsent ? { IfNoneMatch: '*' } : {}),
      };
      try {
        if (typeof body === 'string' || Buffer.isBuffer(body)) {
          await client.send(new PutObjectCommand({ ...params, Body: body }));
        } else {
          // Upload streams in parts (multipart above 5 MiB) so a large chunk is never held whole in memory;
          // it passes IfNoneMatch on to PutObject or CompleteMultipartUpload and aborts the upload on failure.
          const stream = body instanceof Readable ? body : Readable.from(body, { objectMode: false });
          await new Upload({ client, params: { ...params, Body: stream } }).done();
        }
      } catch (error) {
        if (options.ifAbsent && (await lostConditionalWrite(error, fullKey)))
          throw new ObjectExistsError(key);
        throw error;
      }
    },

    async get(key: string): Promise<Readable | null> {
      const fullKey = objectKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: fullKey }));
        if (!(out.Body instanceof Readable))
          throw new Error(`S3 GetObject returned no stream for ${fullKey}`);
        return out.Body;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async head(key: string): Promise<ObjectInfo | null> {
      const found = await headObject(objectKey(key));
      return found ? { key, ...found } : null;
    },

    async *list(prefix: string): AsyncIterable<ObjectInfo> {
      assertSafePrefix(prefix);
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: rootWithSlash + prefix,
            ContinuationToken: token,
          }),
        );
        for (const item of page.Contents ?? []) {
          if (item.Key === undefined) continue;
          yield {
            key: item.Key.slice(rootWithSlash.length),
            size: item.Size ?? 0,
            lastModified: item.LastModified ?? new Date(0),
          };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
    },

    async delete(key: string): Promise<void> {
      // S3 answers 204 for a missing key too, so this is idempotent without a HEAD.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async ping(): Promise<void> {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },

    async close(): Promise<void> {
      client.destroy();
    },
  };
}

function clientConfig(config: S3ObjectStoreConfig): S3ClientConfig {
  if ((config.accessKeyId === undefined) !== (config.secretAccessKey === undefined)) {
    throw new Error('S3 credentials need both accessKeyId and secretAccessKey, or neither');
  }
  const region = config.region ?? (config.endpoint !== undefined ? 'us-east-1' : undefined);
  return {
    ...(config.endpoint !== undefined ? { endpoint: config.endpoint } : {}),
    ...(region !== undefined ? { region } : {}),
    ...(config.accessKeyId !== undefined && config.secretAccessKey !== undefined
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
    forcePathStyle: config.forcePathStyle ?? config.endpoint !== undefined,
    // With the SDK's default (WHEN_SUPPORTED) a streamed PutObject is sent with aws-chunked checksum
    // framing, which several non-AWS servers store inside the object. Checksums only where S3 demands them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // The SDK waits for ever by default: a server that accepts the connection and then hangs would hold a
    // job (its lease renewed) or a request until its own timeout. A socket idle this long is given up.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
  };
}

function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  if (trimmed !== '') assertSafeKey(trimmed);
  return trimmed;
}

// A list prefix is a string prefix, not a key ('raw/a' matches 'raw/ab'), but it must still be one that
// a safe key could start with, so '../', '/abs' or 'a//' are refused like unsafe keys.
function assertSafePrefix(prefix: string): void {
  if (prefix !== '') assertSafeKey(`${prefix}x`);
}

/**
 * An error answer without a body — every HEAD (HeadBucket is the readiness probe), a proxy's bare 5xx — reaches
 * us from the SDK with the message 'UnknownError'. Its HTTP status is all that says what happened, so it goes
 * into the message that /health/ready and the job log show. Name and status are left as they are.
 */
function withBareStatusNamed(error: unknown, command: string): unknown {
  const status = httpStatus(error);
  if (error instanceof Error && error.message === 'UnknownError' && status !== undefined) {
    error.message = `${command} answered HTTP ${status} without an error code`;
  }
  return error;
}

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

// A missing bucket is a configuration error, not a missing object: only GetObject can tell them apart
// (HEAD answers have no body, so both arrive as a bare 404 'NotFound').
function isNotFound(error: unknown): boolean {
  const name = errorName(error);
  if (name === 'NoSuchBucket') return false;
  return httpStatus(error) === 404 || name === 'NoSuchKey' || name === 'NotFound';
}

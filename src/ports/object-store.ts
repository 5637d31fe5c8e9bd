// The object-store port: moves bytes under validated keys. Key building and validation live in domain/keys.ts;
// adapters only put, get, list and delete.
import type { Readable } from 'node:stream';

export interface ObjectInfo {
  key: string;
  size: number;
  lastModified: Date;
}

export type ObjectBody = Buffer | string | Readable | AsyncIterable<Uint8Array | string>;

export interface PutOptions {
  /** Create only: fail with ObjectExistsError when the key is already there (raw chunks are immutable). */
  ifAbsent?: boolean;
  contentType?: string;
}

export interface ObjectStore {
  readonly kind: 'fs' | 's3';
  put(key: string, body: ObjectBody, options?: PutOptions): Promise<void>;
  /** A stream of the object's bytes, or null when there is no such object. */
  get(key: string): Promise<Readable | null>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Every object whose key starts with prefix, in key (byte) order, paginated underneath. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Throws when the store cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class ObjectExistsError extends Error {
  constructor(readonly key: string) {
    super(`object already exists: ${key}`);
    this.name = 'ObjectExistsError';
  }
}

/** Defence in depth: adapters refuse any key that could escape their root, whatever the caller validated. */
export function assertSafeKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 1024 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    key.split('/').some((part) => part === '..' || part === '.' || part === '')
  ) {
    throw new Error(`unsafe object key refused: ${JSON.stringify(key)}`);
  }
}

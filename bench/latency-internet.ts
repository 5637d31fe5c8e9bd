// A fake internet with latency for benchmarks: N sites `sNNNN.latency.test` over HTTPS, each answer held for the
// site's delay, served from a process of its own; optionally sites by name under `.test` (the discovery bench's).
// Its certificates (a wildcard for *.latency.test, and for named sites certificates naming them, all signed by
// a CA made for the run) are generated with the openssl command line, so no key is kept in the repository.
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NamedSite } from './discovery-sites.js';
import type { ServedRequest, ServerData, SiteShape } from './latency-internet-server.js';

export type { NamedSite, ServedRequest, SiteShape };

export interface LatencyInternet {
  /** A SEEDBED_FETCH_RESOLVE value sending *.latency.test:443 (and *.test:443, with named sites) to the server. */
  resolveSpec: string;
  caCert: string;
  hosts: string[];
  /** Takes the log of the requests served since the last call, and how busy the server's thread was. */
  takeLog(): Promise<{ log: ServedRequest[]; connections: number; busy: number }>;
  /**
   * CPU time (user + system, ms) the server's process has spent so far, every thread of it, from /proc (null
   * where there is none): it stands in for publishers on other machines, yet on this machine it takes the same
   * cores as the measured process, so the benches print it beside their own.
   */
  cpuMs(): number | null;
  close(): Promise<void>;
}

/** P-256 keys: a handshake costs the serving thread far less than with RSA, so the fake internet stays cheap. */
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];

/**
 * Named hosts per certificate: a certificate cannot name `*.test` (a wildcard needs two labels under it), and one
 * naming every host would cost each handshake its size, so each group of hosts has its own, chosen by SNI.
 */
const HOSTS_PER_CERT = 64;

function makeCertificates(named: readonly string[] = []): {
  ca: string;
  cert: string;
  key: string;
  namedCerts: Array<{ hosts: string[]; cert: string }>;
} {
  const dir = mkdtempSync(join(tmpdir(), 'seedbed-latency-certs-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    run(
      'req',
      '-x509',
      ...EC_KEY,
      '-nodes',
      '-sha256',
      '-days',
      '2',
      '-keyout',
      'ca-key.pem',
      '-out',
      'ca.pem',
      '-subj',
      '/CN=Seedbed latency bench CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    run(
      'req',
      ...EC_KEY,
      '-nodes',
      '-sha256',
      '-keyout',
      'server-key.pem',
      '-out',
      'server.csr',
      '-subj',
      '/CN=latency.test',
    );
    writeFileSync(
      join(dir, 'ext.cnf'),
      'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' +
        'extendedKeyUsage=serverAuth\nsubjectAltName=DNS:*.latency.test\n',
    );
    /** Signs the one key's request with the CA, for the names the extension file lists. */
    const sign = (extFile: string, out: string) =>
      run(
        'x509',
        '-req',
        '-in',
        'server.csr',
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca-key.pem',
        '-CAcreateserial',
        '-days',
        '2',
        '-sha256',
        '-extfile',
        extFile,
        '-out',
        out,
      );
    sign('ext.cnf', 'server.pem');
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    const namedCerts: Array<{ hosts: string[]; cert: string }> = [];
    for (let i = 0; i < named.length; i += HOSTS_PER_CERT) {
      const hosts = named.slice(i, i + HOSTS_PER_CERT);
      const group = `named-${i}`;
      writeFileSync(
        join(dir, `${group}.cnf`),
        'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n' +
          `extendedKeyUsage=serverAuth\nsubjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}\n`,
      );
      sign(`${group}.cnf`, `${group}.pem`);
      namedCerts.push({ hosts, cert: read(`${group}.pem`) });
    }
    return { ca: read('ca.pem'), cert: read('server.pem'), key: read('server-key.pem'), namedCerts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

/** A process's CPU time over all its threads (utime + stime of /proc/<pid>/stat, ms); null without /proc. */
function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime is field 14 and stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Requests in flight at the sites over time: the largest count and the time-weighted mean while busy. */
export function inFlight(log: readonly ServedRequest[]): { max: number; mean: number } {
  const events = log.flatMap((r) => [
    { at: r.arrivedAt, delta: 1 },
    { at: r.endedAt, delta: -1 },
  ]);
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let current = 0;
  let max = 0;
  let area = 0;
  let last = events[0]?.at ?? 0;
  for (const e of events) {
    area += current * (e.at - last);
    last = e.at;
    current += e.delta;
    max = Math.max(max, current);
  }
  const span = (events.at(-1)?.at ?? 0) - (events[0]?.at ?? 0);
  return { max, mean: span > 0 ? area / span : 0 };
}

/** Requests in flight at the sites between two moments (epoch ms): the mean over that window. */
export function inFlightBetween(log: readonly ServedRequest[], from: number, to: number): number {
  let busyMs = 0;
  for (const r of log) busyMs += Math.max(0, Math.min(to, r.endedAt) - Math.max(from, r.arrivedAt));
  return to > from ? busyMs / (to - from) : 0;
}

export function siteHost(n: number): string {
  return `s${String(n).padStart(5, '0')}.latency.test`;
}

export async function startLatencyInternet(options: {
  sites: number;
  /** Shape of site n (0-based). */
  shape: (n: number) => SiteShape;
  /**
   * Sites by name under `.test` (each its own registrable domain), answered by discovery-sites.ts after
   * `delayMs`; reached through the same server.
   */
  named?: { sites: Record<string, NamedSite>; delayMs: number };
}): Promise<LatencyInternet> {
  const namedHosts = Object.keys(options.named?.sites ?? {});
  const { ca, cert, key, namedCerts } = makeCertificates(namedHosts);
  const shapes = Array.from({ length: options.sites }, (_, n) => options.shape(n));
  const data: ServerData = {
    cert,
    key,
    shapes,
    sites: options.sites,
    ...(options.named ? { named: options.named.sites, namedDelayMs: options.named.delayMs, namedCerts } : {}),
  };
  // A process of its own, not a worker thread: the measured process's CPU and garbage collector are then its own
  // alone (the bench reports them). It loads TypeScript through tsx, as the bench does.
  const server = fork(fileURLToPath(new URL('./latency-internet-server.ts', import.meta.url)), [], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(kind: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { kind: string } & T) => {
        if (message.kind !== kind) return;
        server.off('message', onMessage);
        server.off('exit', onExit);
        resolve(message);
      };
      const onExit = (code: number | null) => {
        server.off('message', onMessage);
        reject(new Error(`the latency internet's server exited (${code})`));
      };
      server.on('message', onMessage);
      server.once('exit', onExit);
    });
  // The server asks for its data once it listens for messages (one sent before would be lost).
  await next('ready');
  const listening = next<{ port: number }>('listening');
  server.send({ kind: 'data', data });
  const { port } = await listening;
  return {
    resolveSpec:
      `*.latency.test:443=127.0.0.1:${port}` + (namedHosts.length > 0 ? `,*.test:443=127.0.0.1:${port}` : ''),
    caCert: ca,
    hosts: Array.from({ length: options.sites }, (_, n) => siteHost(n)),
    async takeLog() {
      const answer = next<{ log: ServedRequest[]; connections: number; busy: number }>('log');
      server.send({ kind: 'log' });
      return answer;
    },
    cpuMs: () => processCpuMs(server.pid),
    async close() {
      const closed = next('closed');
      server.send({ kind: 'close' });
      await closed;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill();
      await exited;
    },
  };
}

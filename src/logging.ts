// The process logger: human-readable lines (pino-pretty) when a person watches the terminal, JSON lines for a
// log collector otherwise. The open-mode warning is marked in both, so it cannot be missed in either.
import { type DestinationStream, type Logger, pino } from 'pino';

/** Marks the warning that the API runs without keys: a field to alert on in JSON, a red banner when pretty. */
export const OPEN_MODE_ALERT = { alert: 'open_mode' } as const;

export type LogFormat = 'pretty' | 'json';

/** pino-pretty's factory, as far as this module uses it. */
export type PrettyFactory = (options: {
  destination: number | NodeJS.WritableStream;
  colorize: boolean;
  sync: boolean;
  ignore: string;
  translateTime: string;
  messageFormat: (log: Record<string, unknown>, messageKey: string) => string;
}) => DestinationStream;

export interface LoggerOptions {
  level: string;
  /** 1 for a server (stdout), 2 for a one-shot command whose stdout is its JSON answer. */
  fd: 1 | 2;
  /** Whether that descriptor is a terminal: pretty lines if so. */
  isTTY: boolean;
  /** For tests: where to write instead of the descriptor. */
  stream?: NodeJS.WritableStream;
  /** For tests: how pino-pretty is found; null when it is not installed. */
  loadPretty?: () => Promise<PrettyFactory | null>;
}

export interface CreatedLogger {
  logger: Logger;
  format: LogFormat;
  /** A terminal asked for pretty lines but pino-pretty is not installed: JSON instead. */
  prettyUnavailable: boolean;
}

/** pino-pretty is loaded only for a terminal, and its absence is not an error: the logs are JSON then. */
async function importPretty(): Promise<PrettyFactory | null> {
  try {
    const module = (await import('pino-pretty')) as unknown as { default: PrettyFactory };
    return module.default;
  } catch {
    return null;
  }
}

const RED_BANNER = (text: string) => `\u001b[1;97;41m ${text} \u001b[0m`;

export async function createLogger(options: LoggerOptions): Promise<CreatedLogger> {
  const base = { level: options.level, base: { service: 'seedbed' } };
  const destination = options.stream ?? options.fd;
  if (options.isTTY) {
    const pretty = await (options.loadPretty ?? importPretty)();
    if (pretty) {
      const stream = pretty({
        destination,
        colorize: true,
        sync: true,
        ignore: 'pid,hostname,service,alert',
        translateTime: 'SYS:HH:MM:ss.l',
        messageFormat: (log, messageKey) => {
          const message = String(log[messageKey] ?? '');
          return log['alert'] === OPEN_MODE_ALERT.alert ? RED_BANNER(message) : message;
        },
      });
      return { logger: pino(base, stream), format: 'pretty', prettyUnavailable: false };
    }
  }
  const sink = options.stream
    ? (options.stream as unknown as DestinationStream)
    : pino.destination(options.fd);
  return { logger: pino(base, sink), format: 'json', prettyUnavailable: options.isTTY };
}

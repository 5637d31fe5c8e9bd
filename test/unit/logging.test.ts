// The process logger: JSON lines off a terminal, pino-pretty lines on one (JSON when pino-pretty is missing), and
// the open-mode warning marked in both: a field in JSON, a red banner in pretty lines.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, OPEN_MODE_ALERT } from '../../src/logging.js';
import { serviceOrSkip } from '../support/services.js';

const prettyInstalled = await serviceOrSkip('the pino-pretty module', async () => {
  await import('pino-pretty');
});

function capture() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  return { stream, text: () => chunks.join('') };
}

const OPEN = '!!! NO API KEYS CONFIGURED: the API is OPEN !!!';
const BANNER = `\u001b[1;97;41m ${OPEN} \u001b[0m`;

describe('createLogger', () => {
  it('off a terminal: JSON lines, the open-mode warning carrying alert=open_mode', async () => {
    const out = capture();
    const { logger, format } = await createLogger({ level: 'info', fd: 1, isTTY: false, stream: out.stream });
    expect(format).toBe('json');
    logger.info({ url: 'http://127.0.0.1:8080' }, 'seedbed is listening');
    logger.warn(OPEN_MODE_ALERT, OPEN);
    const lines = out
      .text()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ level: 30, msg: 'seedbed is listening', service: 'seedbed' });
    expect(lines[0].alert).toBeUndefined();
    expect(lines[1]).toMatchObject({ level: 40, alert: 'open_mode', msg: OPEN });
    expect(out.text()).not.toContain('\u001b[');
  });

  it('on a terminal without pino-pretty: JSON all the same, and says so', async () => {
    const out = capture();
    const created = await createLogger({
      level: 'info',
      fd: 1,
      isTTY: true,
      stream: out.stream,
      loadPretty: async () => null,
    });
    expect(created).toMatchObject({ format: 'json', prettyUnavailable: true });
    created.logger.warn(OPEN_MODE_ALERT, OPEN);
    expect(JSON.parse(out.text())).toMatchObject({ alert: 'open_mode', msg: OPEN });
  });

  it.skipIf(!prettyInstalled)('on a terminal: pretty lines, the open-mode warning a red banner', async () => {
    const out = capture();
    const { logger, format } = await createLogger({ level: 'info', fd: 1, isTTY: true, stream: out.stream });
    expect(format).toBe('pretty');
    logger.info({ url: 'http://127.0.0.1:8080' }, 'seedbed is listening');
    logger.warn(OPEN_MODE_ALERT, OPEN);
    const lines = out.text().trimEnd().split('\n');
    expect(() => JSON.parse(lines[0] ?? '')).toThrow();
    const listening = lines.find((line) => line.includes('seedbed is listening')) ?? '';
    const open = lines.find((line) => line.includes(OPEN)) ?? '';
    expect(listening).not.toContain(BANNER.slice(0, 12));
    expect(open).toContain(BANNER);
    expect(open).toContain('WARN');
    // The marker field itself is not printed: the banner says it.
    expect(out.text()).not.toContain('open_mode');
  });
});

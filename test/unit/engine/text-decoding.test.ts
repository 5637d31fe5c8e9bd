import { describe, expect, it } from 'vitest';
import { decodeText } from '../../../src/engine/text-decoding.js';

const latin1Page = (body: string, label: string) =>
  Buffer.from(`<html><head><meta charset="${label}"><title>${body}</title></head></html>`, 'latin1');

describe('decodeText', () => {
  it('reads a page by its legacy label when the bytes are that encoding', () => {
    expect(decodeText(latin1Page('Größe', 'iso-8859-1'))).toContain('<title>Größe</title>');
    const gbk = Buffer.concat([
      Buffer.from('<meta charset="gb2312"><title>'),
      Buffer.from([0xd6, 0xd0, 0xb9, 0xfa]), // 中国 in GB2312
      Buffer.from('</title>'),
    ]);
    expect(decodeText(gbk)).toContain('<title>中国</title>');
  });

  // People's Daily and several European dailies in the real-page sets serve UTF-8 under an old gb2312 / iso-8859-1
  // label: read by the label, every title and menu word came out as mojibake.
  it('reads valid UTF-8 with non-ASCII as UTF-8 whatever legacy label it carries', () => {
    const utf8 = (label: string) =>
      Buffer.from(`<html><head><meta charset="${label}"><title>人民网 — Größe</title></head></html>`, 'utf8');
    for (const label of ['gb2312', 'iso-8859-1', 'windows-1252', 'shift_jis', 'euc-kr'])
      expect(decodeText(utf8(label)), label).toContain('<title>人民网 — Größe</title>');
    expect(
      decodeText(Buffer.from('<title>Größe</title>', 'utf8'), 'text/html; charset=ISO-8859-1'),
    ).toContain('<title>Größe</title>');
  });

  it('keeps the label for pure ASCII and for bytes that are not valid UTF-8', () => {
    expect(decodeText(latin1Page('plain', 'iso-8859-1'))).toContain('<title>plain</title>');
    // "Ã©" in Latin-1 happens to be valid UTF-8 ("é"), but a lone 0xE9 is not: the label wins.
    expect(decodeText(latin1Page('café', 'windows-1252'))).toContain('<title>café</title>');
  });
});

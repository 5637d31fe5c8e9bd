// The shipped authority override table (src/domain/authority-overrides.json) and the validation an
// operator's file goes through (SEEDBED_AUTHORITY_OVERRIDES).
import { describe, expect, it } from 'vitest';
import { parseAuthorityOverrides, withOperatorOverrides } from '../../../src/domain/authority-overrides.js';
import shipped from '../../../src/domain/authority-overrides.json' with { type: 'json' };
import { classifyHost, SHIPPED_AUTHORITY_OVERRIDES } from '../../../src/domain/domains.js';

// EU member states, the other EEA states, Switzerland and the United Kingdom.
const EU = 'at be bg hr cy cz dk ee fi fr de gr hu ie it lv lt lu mt nl pl pt ro sk si es se'.split(' ');
const REQUIRED_COUNTRIES = [...EU, 'is', 'li', 'no', 'ch', 'gb'];

describe('the shipped table', () => {
  const parsed = parseAuthorityOverrides(shipped);

  it('passes the validation an operator file goes through, every key a registrable domain', () => {
    expect(parsed).toMatchObject({ ok: true });
    if (parsed.ok) expect([...parsed.value.keys()]).toEqual([...SHIPPED_AUTHORITY_OVERRIDES.keys()]);
  });

  it('names at least one institution of every EU and EEA state, Switzerland and the UK', () => {
    const countries = new Set([...SHIPPED_AUTHORITY_OVERRIDES.values()].map((entry) => entry.country));
    expect(REQUIRED_COUNTRIES.filter((cc) => !countries.has(cc))).toEqual([]);
  });

  it('holds only entries the suffix labels do not already give', () => {
    // An entry whose suffix already says the same would be dead weight that hides a real gap.
    const redundant = [...SHIPPED_AUTHORITY_OVERRIDES].filter(([domain, entry]) => {
      const plain = classifyHost(`www.${domain}`, new Map());
      return plain.ok && plain.authority === entry.authority;
    });
    expect(redundant).toEqual([]);
  });

  it('changes what the suffix alone would say for each of its domains', () => {
    for (const [domain, entry] of SHIPPED_AUTHORITY_OVERRIDES) {
      expect(classifyHost(`www.${domain}`), domain).toMatchObject({ ok: true, authority: entry.authority });
    }
  });
});

describe('parseAuthorityOverrides', () => {
  it('accepts the documented shape and stores keys in lowercase ASCII', () => {
    const parsed = parseAuthorityOverrides({
      $comment: 'ours',
      domains: {
        'Example.DE': { authority: 'gov', country: 'DE', note: 'state office' },
        'bücher.de': { authority: 'ngo' },
      },
    });
    expect(parsed).toEqual({
      ok: true,
      value: new Map([
        ['example.de', { authority: 'gov', country: 'de', note: 'state office' }],
        ['xn--bcher-kva.de', { authority: 'ngo' }],
      ]),
    });
  });

  it.each([
    [
      'a subdomain',
      { domains: { 'www.bund.de': { authority: 'gov' } } },
      /www\.bund\.de: not a registrable domain/,
    ],
    ['a public suffix', { domains: { 'gv.at': { authority: 'gov' } } }, /gv\.at: not a registrable domain/],
    ['an IP', { domains: { '10.0.0.1': { authority: 'gov' } } }, /not a registrable domain/],
    [
      'an unknown authority',
      { domains: { 'bund.de': { authority: 'state' } } },
      /domains\.bund\.de\.authority/,
    ],
    ['an unknown country', { domains: { 'bund.de': { authority: 'gov', country: 'xx' } } }, /country/],
    ['an unknown field', { domains: { 'bund.de': { authority: 'gov', owner: 'x' } } }, /owner|unrecognized/i],
    ['no domains', { overrides: {} }, /domains|unrecognized/i],
    ['not an object', ['bund.de'], /expected object/i],
    [
      'one domain twice',
      { domains: { 'bund.de': { authority: 'gov' }, 'BUND.de': { authority: 'ngo' } } },
      /bund\.de is listed twice/,
    ],
  ])('refuses %s with a message naming the entry', (_name, json, message) => {
    const parsed = parseAuthorityOverrides(json);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.join('\n')).toMatch(message);
  });
});

describe('withOperatorOverrides', () => {
  it('extends the shipped table and replaces its entry for the same domain', () => {
    const table = withOperatorOverrides(
      new Map([
        ['bund.de', { authority: 'other' as const }],
        ['example.de', { authority: 'ngo' as const }],
      ]),
    );
    expect(table.get('bund.de')).toEqual({ authority: 'other' });
    expect(table.get('example.de')).toEqual({ authority: 'ngo' });
    expect(table.get('admin.ch')).toMatchObject({ authority: 'gov' });
    expect(table.size).toBe(SHIPPED_AUTHORITY_OVERRIDES.size + 1);
    // The shipped table itself is untouched.
    expect(SHIPPED_AUTHORITY_OVERRIDES.get('bund.de')).toMatchObject({ authority: 'gov' });
  });
});

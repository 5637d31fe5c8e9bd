import { describe, expect, it } from 'vitest';
import {
  AUTHORITIES,
  type Authority,
  authorityOfSuffix,
  classifyHost,
  domainIdOf,
  overrideKeyOf,
  parseDomainId,
  parseSeedId,
  registrableDomainOf,
  SOURCE_TYPES,
  seedIdOf,
  sourceTypeOf,
} from '../../../src/domain/domains.js';

describe('classifyHost', () => {
  it.each([
    ['www.bbc.co.uk', 'bbc.co.uk', 'co.uk', 'com'],
    ['mom.gov.sg', 'mom.gov.sg', 'gov.sg', 'gov'],
    ['www.mom.gov.sg', 'mom.gov.sg', 'gov.sg', 'gov'],
    ['a.b.go.jp', 'b.go.jp', 'go.jp', 'gov'],
    ['ox.ac.uk', 'ox.ac.uk', 'ac.uk', 'edu'],
    ['www.cs.ox.ac.uk', 'ox.ac.uk', 'ac.uk', 'edu'],
    ['nasa.gov', 'nasa.gov', 'gov', 'gov'],
    ['army.mil', 'army.mil', 'mil', 'mil'],
    ['who.int', 'who.int', 'int', 'int'],
    ['wikipedia.org', 'wikipedia.org', 'org', 'ngo'],
    ['x.or.jp', 'x.or.jp', 'or.jp', 'ngo'],
    ['example.com', 'example.com', 'com', 'com'],
    ['example.co.uk', 'example.co.uk', 'co.uk', 'com'],
    ['example.de', 'example.de', 'de', 'other'],
    ['harvard.edu', 'harvard.edu', 'edu', 'edu'],
    ['example.gouv.fr', 'example.gouv.fr', 'gouv.fr', 'gov'],
    ['example.gob.mx', 'example.gob.mx', 'gob.mx', 'gov'],
    ['example.govt.nz', 'example.govt.nz', 'govt.nz', 'gov'],
    ['canada.gc.ca', 'canada.gc.ca', 'gc.ca', 'gov'],
    ['example.gv.at', 'example.gv.at', 'gv.at', 'gov'],
    ['www.gov.ie', 'www.gov.ie', 'gov.ie', 'gov'],
    ['example.mi.th', 'example.mi.th', 'mi.th', 'mil'],
    ['example.net', 'example.net', 'net', 'com'],
    ['example.ne.jp', 'example.ne.jp', 'ne.jp', 'com'],
    ['example.ngo', 'example.ngo', 'ngo', 'ngo'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de', 'de', 'other'],
  ])('%s → %s (suffix %s, %s)', (host, registrable, suffix, authority) => {
    expect(classifyHost(host)).toEqual({
      ok: true,
      host,
      registrableDomain: registrable,
      publicSuffix: suffix,
      icannSuffix: suffix,
      authority,
    });
  });

  // docs/design.md §2: the whole list, so a hosting platform's users are separate publishers; the authority still
  // comes from the ICANN suffix (a blogspot.com user is under .com, a github.io user under the ccTLD .io).
  it.each([
    ['myblog.blogspot.com', 'myblog.blogspot.com', 'blogspot.com', 'com', 'com'],
    ['www.myblog.blogspot.com', 'myblog.blogspot.com', 'blogspot.com', 'com', 'com'],
    ['foo.github.io', 'foo.github.io', 'github.io', 'io', 'other'],
    ['example.uk.com', 'example.uk.com', 'uk.com', 'com', 'com'],
    ['www.example.uk.com', 'example.uk.com', 'uk.com', 'com', 'com'],
    ['x.service.gov.uk', 'x.service.gov.uk', 'service.gov.uk', 'gov.uk', 'gov'],
    // A private-section label never decides: go.dyndns.org is a dynamic-DNS zone, not a government.
    ['x.go.dyndns.org', 'x.go.dyndns.org', 'go.dyndns.org', 'org', 'ngo'],
  ])('%s → %s: private suffix %s, ICANN suffix %s, %s', (host, registrable, suffix, icann, authority) => {
    expect(classifyHost(host)).toEqual({
      ok: true,
      host,
      registrableDomain: registrable,
      publicSuffix: suffix,
      icannSuffix: icann,
      authority,
    });
  });

  it.each([
    ['WWW.BBC.CO.UK', 'www.bbc.co.uk', 'bbc.co.uk'],
    ['Mom.Gov.SG.', 'mom.gov.sg', 'mom.gov.sg'],
    ['www.bücher.de', 'www.xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['食狮.公司.cn', 'xn--85x722f.xn--55qx5d.cn', 'xn--85x722f.xn--55qx5d.cn'],
  ])('takes %s in any case or script and answers in lowercase ASCII', (input, host, registrable) => {
    expect(classifyHost(input)).toMatchObject({ ok: true, host, registrableDomain: registrable });
    expect(registrableDomainOf(input)).toBe(registrable);
  });

  it('removes a trailing dot', () => {
    expect(classifyHost('mom.gov.sg.')).toMatchObject({ ok: true, host: 'mom.gov.sg' });
  });

  it.each([
    ['127.0.0.1', /IP address/],
    ['8.8.8.8', /IP address/],
    ['::1', /IP address/],
    ['[::1]', /IP address/],
    ['[2001:db8::1]', /IP address/],
    ['localhost', /localhost/],
    ['localhost.', /localhost/],
    ['api.localhost', /localhost/],
    ['co.uk', /public suffix/],
    ['uk.com', /public suffix/],
    ['blogspot.com', /public suffix/],
    ['github.io', /public suffix/],
    ['gov.sg', /public suffix/],
    ['gov.ie', /public suffix/],
    ['go.jp', /public suffix/],
    ['com', /public suffix/],
    ['intranet', /public suffix|no registrable domain/],
    ['.example.com', /empty label/],
    ['example..com', /empty label/],
    ['.com', /empty label/],
    ['', /not a valid host name/],
    ['exa mple.com', /not a valid host name/],
    ['example.com:443', /not a valid host name/],
  ])('rejects %s with a reason', (host, expected) => {
    const result = classifyHost(host);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(expected);
  });

  // Authority labels must mean what they say in the suffix they sit in. `mi` is the military label only
  // in mi.th; mi.it is the province of Milan and mi.us the state of Michigan.
  it.each([
    ['comune.mi.it', 'mil'],
    ['example.mi.us', 'mil'],
  ])('does not call %s %s', (host, wrong) => {
    const result = classifyHost(host);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.authority).not.toBe(wrong);
  });

  // A country-code TLD is not an authority label: .ac is Ascension Island, .ne is Niger.
  it.each([
    ['example.ac', 'edu'],
    ['example.ne', 'com'],
  ])('does not take the ccTLD of %s for the %s label', (host, wrong) => {
    const result = classifyHost(host);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.authority, `not ${wrong}`).toBe('other');
  });
});

describe('classifyHost: authority overrides', () => {
  it.each([
    ['www.bund.de', 'bund.de', 'gov'],
    ['bmi.bund.de', 'bund.de', 'gov'],
    ['www.admin.ch', 'admin.ch', 'gov'],
    ['www.parliament.uk', 'parliament.uk', 'gov'],
    ['ec.europa.eu', 'europa.eu', 'int'],
    // gov.nl is a private-section suffix: every *.gov.nl site is its own registrable domain, and the
    // override keyed by the ICANN registrable domain gov.nl covers them all.
    ['www.rijksoverheid.gov.nl', 'rijksoverheid.gov.nl', 'gov'],
    ['www.gov.scot', 'www.gov.scot', 'gov'],
  ])('%s (%s) is %s from the shipped table', (host, registrable, authority) => {
    expect(classifyHost(host)).toMatchObject({ ok: true, registrableDomain: registrable, authority });
  });

  it('without the table the same hosts fall back to their suffix', () => {
    expect(classifyHost('www.bund.de', new Map())).toMatchObject({ ok: true, authority: 'other' });
    expect(classifyHost('www.rijksoverheid.gov.nl', new Map())).toMatchObject({
      ok: true,
      authority: 'other',
    });
  });

  it('takes the table it is given; the registrable domain wins over the ICANN one', () => {
    const table = new Map([
      ['example.de', { authority: 'ngo' as const }],
      ['gov.nl', { authority: 'gov' as const }],
      ['odd.gov.nl', { authority: 'other' as const }],
    ]);
    expect(classifyHost('www.example.de', table)).toMatchObject({ authority: 'ngo' });
    expect(classifyHost('www.bund.de', table)).toMatchObject({ authority: 'other' });
    expect(classifyHost('a.gov.nl', table)).toMatchObject({ authority: 'gov' });
    expect(classifyHost('www.odd.gov.nl', table)).toMatchObject({ authority: 'other' });
  });

  it.each([
    ['www.nhs.uk', 'gov'],
    ['hospital.nhs.uk', 'gov'],
    ['met.police.uk', 'gov'],
  ])('%s is %s: nhs.uk and police.uk are public bodies', (host, authority) => {
    expect(classifyHost(host, new Map())).toMatchObject({ ok: true, authority });
  });
});

describe('overrideKeyOf', () => {
  it.each([
    ['bund.de', 'bund.de'],
    [' Bund.DE ', 'bund.de'],
    ['gov.nl', 'gov.nl'],
    ['blogspot.com', 'blogspot.com'],
    ['myblog.blogspot.com', 'myblog.blogspot.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
  ])('%j is stored as %s', (name, key) => {
    expect(overrideKeyOf(name)).toBe(key);
  });

  it.each([
    'www.bund.de',
    'gv.at',
    'gov.uk',
    'com',
    '127.0.0.1',
    'localhost',
    '.bund.de',
    '',
  ])('refuses %j', (name) => {
    expect(overrideKeyOf(name)).toBeNull();
  });
});

describe('authorityOfSuffix', () => {
  it.each([
    ['gov.sg', 'gov'],
    ['GOV.SG', 'gov'],
    ['go.jp', 'gov'],
    ['gov', 'gov'],
    ['mil', 'mil'],
    ['mil.nz', 'mil'],
    ['ac.uk', 'edu'],
    ['edu.au', 'edu'],
    ['sch.uk', 'edu'],
    ['int', 'int'],
    ['org', 'ngo'],
    ['org.uk', 'ngo'],
    ['or.jp', 'ngo'],
    ['asso.fr', 'ngo'],
    ['com', 'com'],
    ['com.sg', 'com'],
    ['co.uk', 'com'],
    ['ltd.uk', 'com'],
    ['net', 'com'],
    ['de', 'other'],
    ['io', 'other'],
    ['k12.ca.us', 'other'],
    ['', 'other'],
  ])('%s → %s', (suffix, authority) => {
    expect(authorityOfSuffix(suffix)).toBe(authority);
  });

  it('lets the most specific label decide', () => {
    // Hypothetical suffixes: only the order of the labels differs.
    expect(authorityOfSuffix('gov.co.xx')).toBe('gov');
    expect(authorityOfSuffix('co.gov.xx')).toBe('com');
  });
});

describe('sourceTypeOf', () => {
  it.each([
    ['gov', 'government'],
    ['mil', 'government'],
    ['int', 'organization'],
    ['edu', 'organization'],
    ['ngo', 'ngo'],
    ['com', 'company'],
    ['other', 'other'],
  ] as const)('%s → %s', (authority, sourceType) => {
    expect(sourceTypeOf(authority)).toBe(sourceType);
  });

  it('maps every authority to a known source type', () => {
    for (const authority of AUTHORITIES) expect(SOURCE_TYPES).toContain(sourceTypeOf(authority));
  });
});

describe('domain_id', () => {
  it('is {authority}:{country}:{registrable}', () => {
    expect(domainIdOf('gov', 'sg', 'mom.gov.sg')).toBe('gov:sg:mom.gov.sg');
    expect(domainIdOf('int', 'intl', 'who.int')).toBe('int:intl:who.int');
  });

  it.each([
    ['gov', 'sg', 'mom.gov.sg'],
    ['int', 'intl', 'who.int'],
    ['other', 'de', 'xn--bcher-kva.de'],
    ['com', 'gb', 'bbc.co.uk'],
    ['ngo', 'us', 'a-b.org'],
  ] as const)('round-trips %s:%s:%s', (authority, country, registrable) => {
    expect(parseDomainId(domainIdOf(authority as Authority, country, registrable))).toEqual({
      authority,
      country,
      registrableDomain: registrable,
    });
  });

  it('round-trips every authority', () => {
    for (const authority of AUTHORITIES) {
      expect(parseDomainId(domainIdOf(authority, 'fr', 'example.fr'))?.authority).toBe(authority);
    }
  });

  it('normalises case and surrounding whitespace', () => {
    expect(parseDomainId('GOV:SG:MOM.GOV.SG')).toEqual({
      authority: 'gov',
      country: 'sg',
      registrableDomain: 'mom.gov.sg',
    });
    expect(parseDomainId('  gov:sg:mom.gov.sg ')).toMatchObject({ registrableDomain: 'mom.gov.sg' });
  });

  it.each([
    ['an unknown authority', 'state:sg:mom.gov.sg'],
    ['a 3-letter country', 'gov:sgp:mom.gov.sg'],
    ['a 1-letter country', 'gov:s:mom.gov.sg'],
    ['a digit country', 'gov:s1:mom.gov.sg'],
    ['a space inside', 'gov: sg:mom.gov.sg'],
    ['a space in the domain', 'gov:sg:mom .gov.sg'],
    ['no domain', 'gov:sg:'],
    ['no country', 'gov::mom.gov.sg'],
    ['two parts', 'gov:mom.gov.sg'],
    ['one part', 'mom.gov.sg'],
    ['an empty string', ''],
    ['a single-label domain', 'gov:sg:localhost'],
    ['path traversal', 'gov:sg:../../etc'],
    ['a slash', 'gov:sg:mom.gov.sg/x'],
    ['a backslash', 'gov:sg:mom.gov.sg\\x'],
    ['a trailing dot', 'gov:sg:mom.gov.sg.'],
    ['an empty label', 'gov:sg:mom..sg'],
    ['a label starting with a hyphen', 'gov:sg:-mom.gov.sg'],
    ['a unicode domain', 'other:de:bücher.de'],
    ['a port', 'com:us:example.com:443'],
    ['a seed id', 'gov:sg:mom.gov.sg::news'],
  ])('rejects %s', (_name, value) => {
    expect(parseDomainId(value)).toBeNull();
  });

  // docs/design.md §2: the country part is an ISO 3166-1 alpha-2 code or intl, as everywhere else.
  it.each([
    'gov:xx:mom.gov.sg',
    'com:zz:example.com',
    'com:uk:example.co.uk',
  ])('rejects %s, whose country is not an ISO 3166-1 code', (value) => {
    expect(parseDomainId(value)).toBeNull();
  });
});

describe('seed_id', () => {
  it('is {domain_id}::{content_type} and round-trips', () => {
    const seedId = seedIdOf('gov:sg:mom.gov.sg', 'news');
    expect(seedId).toBe('gov:sg:mom.gov.sg::news');
    expect(parseSeedId(seedId)).toEqual({ domainId: 'gov:sg:mom.gov.sg', contentType: 'news' });
  });

  it.each(['policy', 'press_releases', 'a', 'x-9', 'a'.repeat(64)])('round-trips content type %s', (type) => {
    expect(parseSeedId(seedIdOf('int:intl:who.int', type))).toEqual({
      domainId: 'int:intl:who.int',
      contentType: type,
    });
  });

  it.each([
    ['no separator', 'gov:sg:mom.gov.sg'],
    ['a single colon', 'gov:sg:mom.gov.sg:news'],
    ['no content type', 'gov:sg:mom.gov.sg::'],
    ['no domain id', '::news'],
    ['a bad domain id', 'gov:sg:../x::news'],
    ['a content type with a slash', 'gov:sg:mom.gov.sg::news/x'],
    ['a content type of 65 characters', `gov:sg:mom.gov.sg::${'a'.repeat(65)}`],
    ['a content type starting with _', 'gov:sg:mom.gov.sg::_news'],
    ['a third colon', 'gov:sg:mom.gov.sg:::news'],
    ['an empty string', ''],
  ])('rejects %s', (_name, value) => {
    expect(parseSeedId(value)).toBeNull();
  });

  // Like domain ids, seed ids are matched in any case and without surrounding space: the canonical form comes back.
  it.each([
    'gov:sg:mom.gov.sg::News',
    'gov:sg:mom.gov.sg::news ',
    'GOV:SG:MOM.GOV.SG::NEWS',
  ])('canonicalises %j', (value) => {
    expect(parseSeedId(value)).toEqual({ domainId: 'gov:sg:mom.gov.sg', contentType: 'news' });
  });

  // The domain id a seed id yields is used as a key; it must be the canonical (lowercase, trimmed) one,
  // or the seed id must be refused, never echoed back in a spelling that parseDomainId normalises away.
  it.each([
    'GOV:SG:MOM.GOV.SG::news',
    ' gov:sg:mom.gov.sg::news',
  ])('never yields a non-canonical domain id for %j', (value) => {
    const parsed = parseSeedId(value);
    if (parsed !== null) expect(parsed.domainId).toBe('gov:sg:mom.gov.sg');
  });
});

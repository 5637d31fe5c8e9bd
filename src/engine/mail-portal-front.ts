// A front page whose own title or site name offers e-mail: a mail portal's front (WEB.DE "kostenlose
// E-Mail-Adresse, FreeMail & Nachrichten", GMX "kostenlose E-Mail, Cloud, Nachrichten & Freemail"). Such a front
// has a newsroom's layout — dozens of stories under a section menu, bylines — since news is one of the portal's
// services, so news-verdict.ts holds it in the maybe band for a person to look at. A newspaper names itself, not an
// inbox. Pure.
//
// Only the title and og:site_name are read: a newsroom's meta description may well say "the news in your email".
// The words are those of an e-mail service itself, never of a newspaper's name ("Daily Mail", "El Correo", Korean
// 매일 "daily" are other words).

/** An e-mail service's own words, standing as words of their own. */
const MAIL_SERVICE_WORDS =
  /(?:^|[^\p{L}\p{N}])(e-?mail|freemail|webmail|courriel|メール|메일|邮箱|電子郵件)(?=$|[^\p{L}\p{N}])/iu;

/** Where a front page's title or site name offers e-mail, as evidence; else null. */
export function mailPortalFront(title: string | null, siteName: string | null): string | null {
  for (const [what, text] of [
    ['title', title],
    ['site name', siteName],
  ] as const) {
    const found = typeof text === 'string' ? MAIL_SERVICE_WORDS.exec(text) : null;
    if (found !== null)
      return `"${found[1]}" in the front page's ${what} "${(text as string).slice(0, 100)}": a mail portal, news one of its services`;
  }
  return null;
}

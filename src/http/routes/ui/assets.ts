// The page's only script and stylesheet, served from our origin (the CSP allows nothing inline). The script is
// an enhancement: every page works without it (select-all, the selection count and live batch progress).

export const APP_JS = `'use strict';
(function () {
  // Select every box on the page; the count of selected ones is told to screen readers too. The attributes name
  // the boxes' field (seed on the seed list, domain on the candidates list); empty means seed.
  function boxes(name) { return document.querySelectorAll('input[type="checkbox"][name="' + (name || 'seed') + '"]'); }
  function count() {
    var out = document.querySelector('[data-selected-count]');
    if (!out) return;
    var n = 0;
    boxes(out.getAttribute('data-selected-count')).forEach(function (box) { if (box.checked) n += 1; });
    out.textContent = n === 0 ? 'None selected' : n + ' selected';
  }
  document.addEventListener('change', function (event) {
    var target = event.target;
    if (target && target.hasAttribute && target.hasAttribute('data-select-all')) {
      boxes(target.getAttribute('data-select-all')).forEach(function (box) { box.checked = target.checked; });
    }
    count();
  });
  document.addEventListener('DOMContentLoaded', count);

  // A block with data-refresh="/url" is replaced by what that URL answers, until it stops carrying the attribute.
  function follow() {
    var block = document.querySelector('[data-refresh]');
    if (!block) return;
    fetch(block.getAttribute('data-refresh'), { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (text) {
        var holder = document.createElement('div');
        holder.innerHTML = text;
        var next = holder.firstElementChild;
        if (next) block.replaceWith(next);
        if (next && next.hasAttribute('data-refresh')) setTimeout(follow, 2000);
      })
      .catch(function () { setTimeout(follow, 5000); });
  }
  document.addEventListener('DOMContentLoaded', function () { setTimeout(follow, 1000); });
})();
`;

export const APP_CSS = `
:root { --fg: #1b1f23; --muted: #57606a; --line: #d0d7de; --accent: #0550ae; --bad: #a40e26; --bg: #fff; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
header nav a { margin-right: 1rem; }
header nav a[aria-current="page"] { font-weight: 700; text-decoration: none; }
.who { margin-left: auto; color: var(--muted); }
main { padding: 1rem; max-width: 1400px; }
h1 { font-size: 1.5rem; margin: .2rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin-top: 1.6rem; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, main:focus-visible {
  outline: 3px solid #fb8f44; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: .5rem; background: #fff; padding: .3rem; z-index: 2; }
button, .button { font: inherit; padding: .35rem .8rem; border: 1px solid var(--line); border-radius: 6px; background: #f6f8fa; color: var(--fg); cursor: pointer; text-decoration: none; display: inline-block; }
.inline { display: inline; }
/* The button rule above would show [hidden] elements (the decide form's disabled default button). */
[hidden] { display: none !important; }
.filters { display: flex; flex-wrap: wrap; gap: .6rem 1rem; align-items: end; margin-bottom: 1rem; }
.filters label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
input, select, textarea { font: inherit; padding: .25rem .4rem; border: 1px solid var(--line); border-radius: 4px; max-width: 100%; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; color: var(--muted); padding: .3rem 0; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td a, td code { overflow-wrap: anywhere; }
small { color: var(--muted); }
.bad { color: var(--bad); }
.error, .field-error { color: var(--bad); }
.error { border-left: 4px solid var(--bad); padding-left: .6rem; }
.flash { border-left: 4px solid var(--accent); padding-left: .6rem; }
.note { color: var(--muted); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .6rem 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.facts ul { margin: 0; padding-left: 1.1rem; }
pre { background: #f6f8fa; padding: .6rem; overflow-x: auto; }
pre mark { background: #fff8c5; display: inline-block; width: 100%; font-weight: 700; }
.ln { color: var(--muted); display: inline-block; min-width: 3ch; text-align: right; }
.field { display: grid; gap: .2rem; margin-bottom: .8rem; max-width: 48rem; }
.field input, .field textarea { width: 100%; }
[aria-invalid="true"] { border-color: var(--bad); }
.cards { display: flex; flex-wrap: wrap; gap: 1rem; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 0 1rem 1rem; min-width: 16rem; }
.counts { list-style: none; padding: 0; }
.diff del, .diff ins { white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: .9em; }
.diff del { background: #ffebe9; text-decoration: none; }
.diff ins { background: #dafbe1; text-decoration: none; }
.proposed { border: 2px solid #fb8f44; padding: .5rem; border-radius: 6px; }
progress { width: 100%; max-width: 30rem; height: 1.2rem; }
.login { max-width: 28rem; }
.tight { margin: 0; padding-left: 1rem; }
.decide { display: flex; flex-wrap: wrap; gap: .6rem 1rem; margin: .4rem 0 .8rem; }
.decide fieldset { border: 1px solid var(--line); border-radius: 6px; display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
@media (max-width: 640px) {
  main { padding: .6rem; }
  .facts { grid-template-columns: 1fr; }
  .facts dt { font-weight: 600; }
  .who { margin-left: 0; }
  /* Tables keep readable columns and scroll inside their own box rather than squeezing words apart. */
  .scroll table { min-width: 36rem; }
}
`;

// Kite's localizable strings, one tool for both halves:
//  - package.json: every contributed text (titles, view names, settings, walkthrough…) is a %key%
//    whose English text is in package.nls.json. `--write` moves a literal text that a new
//    contribution added into package.nls.json (keys derive from where the text sits).
//  - src: every vscode.l10n.t / l10n.t literal is an entry of the English bundle l10n/bundle.l10n.json
//    (the format @vscode/l10n-dev writes: message → message). `--write` regenerates it.
// `node scripts/l10n.mjs` checks both and exits 1 naming what is missing; `--write` fixes it.
import { readFileSync, writeFileSync, readdirSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// --root DIR checks another tree (the unit test's temporary ones); default: this repository.
const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? process.argv[rootArg + 1] : join(import.meta.dirname, '..');

/** Manifest texts a person reads, as [path pattern, key builder]. `*` = any array index / object key. */
function manifestTexts(pkg) {
  const out = []; // { holder, prop, key }
  const add = (holder, prop, key) => { if (holder && typeof holder[prop] === 'string') out.push({ holder, prop, key }); };
  add(pkg, 'displayName', 'displayName');
  add(pkg, 'description', 'description');
  const c = pkg.contributes ?? {};
  for (const cmd of c.commands ?? []) {
    const id = cmd.command.replace(/^kite\./, '');
    add(cmd, 'title', `command.${id}.title`);
    add(cmd, 'shortTitle', `command.${id}.shortTitle`);
    add(cmd, 'category', 'command.category');
  }
  for (const list of Object.values(c.viewsContainers ?? {})) for (const vc of list) add(vc, 'title', `viewsContainer.${vc.id}.title`);
  for (const list of Object.values(c.views ?? {})) for (const v of list) {
    const id = v.id.replace(/^kite\./, '');
    add(v, 'name', `view.${id}.name`);
    add(v, 'contextualTitle', 'view.contextualTitle');
  }
  for (const ed of c.customEditors ?? []) add(ed, 'displayName', `customEditor.${ed.viewType.replace(/^kite\./, '')}.displayName`);
  const welcomeCount = {};
  for (const w of c.viewsWelcome ?? []) {
    const view = w.view.replace(/^kite\./, '');
    welcomeCount[view] = (welcomeCount[view] ?? 0) + 1;
    add(w, 'contents', `viewsWelcome.${view}.${welcomeCount[view]}`);
  }
  const conf = c.configuration ?? {};
  add(conf, 'title', 'configuration.title');
  for (const [name, p] of Object.entries(conf.properties ?? {})) {
    const id = name.replace(/^kite\./, '');
    add(p, 'description', `config.${id}.description`);
    add(p, 'markdownDescription', `config.${id}.markdownDescription`);
    add(p, 'deprecationMessage', `config.${id}.deprecationMessage`);
    (p.enumDescriptions ?? []).forEach((_, i) => add(p.enumDescriptions, i, `config.${id}.enumDescriptions.${p.enum?.[i] ?? i}`));
  }
  for (const d of c.debuggers ?? []) {
    add(d, 'label', `debugger.${d.type}.label`);
    for (const [req, attrs] of Object.entries(d.configurationAttributes ?? {})) for (const [prop, a] of Object.entries(attrs.properties ?? {})) {
      add(a, 'description', `debugger.${d.type}.${req}.${prop}.description`);
      add(a, 'markdownDescription', `debugger.${d.type}.${req}.${prop}.markdownDescription`);
    }
    (d.configurationSnippets ?? []).forEach((s, i) => {
      add(s, 'label', `debugger.${d.type}.snippet.${i + 1}.label`);
      add(s, 'description', `debugger.${d.type}.snippet.${i + 1}.description`);
    });
  }
  for (const wt of c.walkthroughs ?? []) {
    add(wt, 'title', `walkthrough.${wt.id}.title`);
    add(wt, 'description', `walkthrough.${wt.id}.description`);
    for (const s of wt.steps ?? []) {
      add(s, 'title', `walkthrough.${wt.id}.${s.id}.title`);
      add(s, 'description', `walkthrough.${wt.id}.${s.id}.description`);
      add(s.media, 'altText', `walkthrough.${wt.id}.${s.id}.altText`);
    }
  }
  const caps = pkg.capabilities ?? {};
  add(caps.virtualWorkspaces, 'description', 'capabilities.virtualWorkspaces.description');
  add(caps.untrustedWorkspaces, 'description', 'capabilities.untrustedWorkspaces.description');
  return out;
}

const KEY_REF = /^%([^%\s]+)%$/;

/** Every %key% used anywhere in the manifest (VS Code replaces them wherever they are). */
export function manifestKeys(value, keys = new Set()) {
  if (typeof value === 'string') { const m = KEY_REF.exec(value); if (m) keys.add(m[1]); }
  else if (Array.isArray(value)) for (const v of value) manifestKeys(v, keys);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) manifestKeys(v, keys);
  return keys;
}

/** Literal texts left in localizable places of the manifest: "contributes.commands[kite.x].title"-like names. */
export function literalManifestTexts(pkg) {
  return manifestTexts(pkg).filter((t) => !KEY_REF.test(t.holder[t.prop])).map((t) => ({ key: t.key, text: t.holder[t.prop] }));
}

function sourceFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every message passed to l10n.t / vscode.l10n.t under src/, with where it is; non-literal messages are problems. */
export function sourceMessages(dir = join(root, 'src')) {
  const messages = new Map(); // key → first location
  const problems = [];
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('l10n.t(')) continue;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const at = (n) => `${relative(root, file)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
    const visit = (n) => {
      if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 't' && /(^|\.)l10n$/.test(n.expression.expression.getText(sf))) {
        const a = n.arguments[0];
        if (a && (ts.isStringLiteral(a) || ts.isNoSubstitutionTemplateLiteral(a))) { if (!messages.has(a.text)) messages.set(a.text, at(a)); }
        else problems.push(`${at(n)}: l10n.t needs a string literal as its message (the bundle is extracted from the source), got ${a ? a.getText(sf).slice(0, 60) : 'nothing'}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { messages, problems };
}

const stable = (obj) => JSON.stringify(obj, null, 2) + '\n';

function main() {
  const write = process.argv.includes('--write');
  const pkgPath = join(root, 'package.json'), nlsPath = join(root, 'package.nls.json'), bundlePath = join(root, 'l10n', 'bundle.l10n.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const nls = JSON.parse(readFileSync(nlsPath, 'utf8'));
  const problems = [];
  for (const t of manifestTexts(pkg).filter((t) => !KEY_REF.test(t.holder[t.prop]))) {
    if (!write) { problems.push(`package.json: ${t.key} is literal text, not a %key% (run node scripts/l10n.mjs --write)`); continue; }
    if (nls[t.key] !== undefined && nls[t.key] !== t.holder[t.prop]) {
      let n = 2; while (nls[`${t.key}.${n}`] !== undefined && nls[`${t.key}.${n}`] !== t.holder[t.prop]) n++;
      t.key = `${t.key}.${n}`;
    }
    nls[t.key] = t.holder[t.prop];
    t.holder[t.prop] = `%${t.key}%`;
  }
  for (const k of manifestKeys(pkg)) if (nls[k] === undefined) problems.push(`package.json uses %${k}% but package.nls.json has no "${k}"`);
  const src = sourceMessages();
  problems.push(...src.problems);
  const bundle = Object.fromEntries([...src.messages.keys()].sort().map((m) => [m, m]));
  if (write) {
    writeFileSync(pkgPath, stable(pkg));
    writeFileSync(nlsPath, stable(nls));
    mkdirSync(join(root, 'l10n'), { recursive: true });
    writeFileSync(bundlePath, stable(bundle));
  } else {
    let current = {};
    try { current = JSON.parse(readFileSync(bundlePath, 'utf8')); } catch (e) { problems.push(`l10n/bundle.l10n.json: ${e.message}`); }
    for (const [m, where] of src.messages) if (current[m] === undefined) problems.push(`${where}: "${m.slice(0, 60)}" is not in l10n/bundle.l10n.json (run node scripts/l10n.mjs --write)`);
  }
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log(write ? `l10n: package.nls.json ${Object.keys(nls).length} keys, l10n/bundle.l10n.json ${Object.keys(bundle).length} messages` : 'l10n: up to date');
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main();

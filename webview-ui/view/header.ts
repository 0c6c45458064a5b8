// The run at a glance: which run, live or ended (and how), turns, tokens, cost against the budget,
// errors, where its commands ran (sandbox or not), problems found in the log, and loading progress.
import { describeSandbox } from '../../src/harness/protocol/sandboxInfo';
import type { LogProblem } from '../../src/harness/protocol/webviewMessages';
import type { TimelineStore } from '../model/timelineStore';
import { compactNumber, formatUsd } from '../model/format';
import type { Announcer } from './announcer';
import { observationTokens } from '../../src/harness/protocol/contextTally';
import { setClassName, setHidden, setText, setTitle } from './domWrites';
import { thousands } from '../../src/harness/protocol/thousands';

export class Header {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly badge: HTMLElement;
  private readonly stats: HTMLElement;
  private readonly sandboxEl: HTMLElement;
  private readonly problemsEl: HTMLElement;
  private readonly banner: HTMLElement;
  /** "Add to Evals": shown once the run has ended (a case is made from the whole log). */
  private readonly addToEvals: HTMLElement;
  /** What was last announced of each line, so a redraw does not repeat it. */
  private said = { outcome: '', problems: '', banner: '' };

  constructor(
    parent: HTMLElement,
    private readonly announcer: Announcer,
    onAddToEvals: () => void = () => undefined,
  ) {
    this.el = document.createElement('header');
    this.el.className = 'head';
    const line = document.createElement('div');
    line.className = 'head-line';
    this.badge = document.createElement('span');
    this.badge.className = 'badge';
    this.badge.id = 'run-badge';
    this.title = document.createElement('span');
    this.title.className = 'run-title';
    this.title.id = 'run-title';
    this.addToEvals = document.createElement('vscode-button');
    this.addToEvals.id = 'add-to-evals';
    this.addToEvals.setAttribute('secondary', '');
    this.addToEvals.title = 'Write an eval case from this run (kite eval add): its starting commit, feature, checks and recorded replies';
    this.addToEvals.textContent = 'Add to Evals';
    this.addToEvals.hidden = true;
    this.addToEvals.addEventListener('click', onAddToEvals);
    line.append(this.badge, this.title, this.addToEvals);
    this.stats = document.createElement('div');
    this.stats.className = 'stats';
    this.stats.id = 'stats';
    this.sandboxEl = document.createElement('div');
    this.sandboxEl.className = 'sandbox';
    this.sandboxEl.id = 'sandbox';
    this.sandboxEl.hidden = true;
    this.problemsEl = document.createElement('div');
    this.problemsEl.className = 'problems';
    this.problemsEl.id = 'problems';
    this.problemsEl.hidden = true;
    this.banner = document.createElement('div');
    this.banner.className = 'banner';
    this.banner.id = 'banner';
    this.banner.hidden = true;
    this.el.append(line, this.stats, this.sandboxEl, this.problemsEl, this.banner);
    parent.append(this.el);
  }

  update(store: TimelineStore, problems: readonly LogProblem[], statusMessage: string | null): void {
    const t = store.totals;
    const outcome = t.outcome;
    if (outcome) {
      setText(this.badge, outcome.replace(/_/g, ' '));
      setClassName(this.badge, `badge ${outcome === 'done' ? 'ok' : outcome === 'cancelled' ? 'warn' : 'error'}`);
    } else if (store.source.live) {
      setText(this.badge, 'live');
      setClassName(this.badge, 'badge live');
    } else {
      setText(this.badge, store.rowCount ? 'not finished' : '');
      setClassName(this.badge, 'badge');
    }
    setHidden(this.addToEvals, !outcome);
    setText(this.title, t.feature ? `${t.feature}` : store.source.title);
    setTitle(this.title, `${store.source.title}\n${store.source.log}${t.model ? `\n${t.model}` : ''}`);
    const budget = store.series.budgetUsd;
    const cost = store.series.totalCost;
    const parts = [
      `${t.turns} turn${t.turns === 1 ? '' : 's'}`,
      `${compactNumber(t.tokens)} tokens`,
      budget !== null ? `${formatUsd(cost)} of ${formatUsd(budget)}` : formatUsd(cost),
      `${t.errors} error${t.errors === 1 ? '' : 's'}`,
    ];
    // Shown when the run has an observation budget or was compacted (most runs have neither).
    if (store.observationLimit !== null || store.compactions > 0) {
      const obs = observationTokens(store.context);
      parts.push(`~${compactNumber(obs)}${store.observationLimit !== null ? ` of ${compactNumber(store.observationLimit)}` : ''} observation tokens`);
      if (store.compactions) parts.push(`${store.compactions} compaction${store.compactions === 1 ? '' : 's'}`);
    }
    if (store.loading) parts.push(`loading ${thousands(store.rowCount)} of ~${thousands(Math.max(store.expected, store.rowCount))} events…`);
    setText(this.stats, parts.join(' · '));
    this.stats.classList.toggle('over-budget', budget !== null && cost > budget); // writes only on change
    const sb = t.sandbox;
    setHidden(this.sandboxEl, sb === null); // older logs do not say
    setText(this.sandboxEl, sb ? `Commands: ${describeSandbox(sb)}` : '');
    this.sandboxEl.classList.toggle('unsandboxed', sb?.kind === 'none');
    if (problems.length) {
      setHidden(this.problemsEl, false);
      const shown = problems.slice(0, 3).map((p) => p.message);
      setText(this.problemsEl, `${problems.length} unreadable line${problems.length === 1 ? '' : 's'} skipped — ${shown.join('; ')}${problems.length > 3 ? '; …' : ''}`);
    } else setHidden(this.problemsEl, true);
    setHidden(this.banner, !statusMessage);
    setText(this.banner, statusMessage ?? '');
    this.announce(outcome ? `Run ended: ${this.badge.textContent}` : '', this.problemsEl.hidden ? '' : (this.problemsEl.textContent ?? ''), statusMessage ?? '');
  }

  /** The outcome, the problems line and the banner are said once each time they change. */
  private announce(outcome: string, problems: string, banner: string): void {
    const now = { outcome, problems, banner };
    const news = (['outcome', 'problems', 'banner'] as const).filter((k) => now[k] !== '' && now[k] !== this.said[k]).map((k) => now[k]);
    this.said = now;
    if (news.length) this.announcer.say(news.join('. '));
  }
}

// Ordered rules decide allow / ask / deny for every validated tool call; the first match wins and
// every verdict names its rule. Order (see ARCHITECTURE.md §2):
//   1. feature:tools        a feature that restricts its tools denies the others
//   2. policy.rules         explicit rules from .kite/config.json, in order ("Always allow" lands here)
//   3. reads                allow (ask for files that usually hold secrets: .env, keys)
//   4. commands             deny list → configured checks / verify (exact) → policy.allow → ask
//   5. writes               ask (Kite's own files — .kite/, kite-progress.json — ask even unattended;
//                           protected files, protect.ts, ask as "protect:<pattern>", refused unattended)
// Unattended: writes inside the workspace are allowed; anything else that would ask is refused
// with rule "unattended:refuse" and a reason the model is told.
import { GUARD_RULES } from '../tools/openGuarded';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { matchGlob } from '../tools/glob';
import type { DenyEntry, HostPolicy, PolicyConfig, PolicyRule } from './config';
import { DEFAULT_DENY, type DenyRule } from './defaults';
import { DEFAULT_PROTECT, protectingPattern } from './protect';
import { GIT_UNSAFE_RULE, gitUnsafeReason, unsafeGitArgs } from './gitArgs';
import type { PolicyCall, PolicyContext, PolicyVerdict } from './types';

export type { PolicyRule } from './config';

/** Files that usually hold secrets: reading them needs a person (refused unattended). */
export const SECRET_FILE_GLOBS = ['.env', '.env.*', '*.pem', '*.key', '*.p12', '*.pfx', 'id_rsa*', 'id_ed25519*', 'id_ecdsa*', '.npmrc', '.netrc', '.pypirc', 'credentials.json'];
/** Kite's own files: an agent that rewrote them could loosen its policy or its verify command. */
export const HARNESS_FILE_GLOBS = ['/.kite/**', '/kite-progress.json'];
const NOT_SECRET = ['.env.example', '.env.sample', '.env.template', '*.pub'];

function normPath(p: string | null): string | null {
  if (p === null) return null;
  const n = path.posix.normalize(p.replace(/\\/g, '/'));
  return n === '.' ? '' : n.replace(/^\.\//, '');
}

function toDenyRule(e: DenyEntry, i: number): DenyRule {
  if (typeof e === 'string') return { id: `deny:config:${i}`, re: new RegExp(e), reason: `The command matches the policy's deny pattern /${e}/.` };
  return { id: e.id, re: new RegExp(e.pattern), reason: e.reason ?? `The command matches the policy's deny pattern /${e.pattern}/.` };
}

/** Shell syntax that chains, redirects or substitutes commands. */
const SHELL_OPS = /[;&|`<>\n]|\$\(/;

/**
 * A pattern that must match the whole command. `.*` in "npx eslint .*" would otherwise also
 * allow "npx eslint x; rm -rf src": unless the pattern itself spells out shell operators, a
 * command that chains, redirects or substitutes never matches it.
 */
function wholeMatch(pattern: string): { test(cmd: string): boolean } {
  const re = new RegExp(`^(?:${pattern})$`);
  // Operators written literally in the pattern (";", "&", "<", ">", "`", "\\|", "\\$\\("); a bare "|" is
  // regex alternation, not a pipe.
  const opsAllowed = /[;&`<>]|\\\||\\\$\\\(/.test(pattern);
  return { test: (cmd) => (opsAllowed || !SHELL_OPS.test(cmd)) && re.test(cmd) };
}

export class Policy {
  private readonly deny: DenyRule[];
  private readonly allow: { id: string; re: { test(cmd: string): boolean } }[];
  private readonly rules: { id: string; rule: PolicyRule; re: { test(cmd: string): boolean } | null }[];
  private readonly hostDeny: DenyRule[];
  private readonly hostAllow: { id: string; re: { test(cmd: string): boolean } }[];
  private readonly protect: string[];

  /** `host`: the host's (VS Code settings') additions, see HostPolicySchema. */
  constructor(config: PolicyConfig, host?: HostPolicy) {
    const off = new Set(config.disable);
    this.deny = [...DEFAULT_DENY.filter((r) => !off.has(r.id)), ...config.deny.map(toDenyRule)];
    this.allow = config.allow.map((p, i) => ({ id: `allow:config:${i}`, re: wholeMatch(p) }));
    this.hostDeny = (host?.deny ?? []).map((p, i) => ({ id: `deny:setting:${i}`, re: new RegExp(p), reason: `The command matches the deny pattern /${p}/ of your Kite settings (kite.policy.denyCommands).` }));
    this.hostAllow = (host?.allow_attended ?? []).map((p, i) => ({ id: `allow:setting:${i}`, re: wholeMatch(p) }));
    this.protect = [...DEFAULT_PROTECT, ...(config.protect ?? [])];
    this.rules = config.rules.map((rule, i) => ({ id: rule.id ?? `rule:${i}`, rule, re: rule.command_pattern ? wholeMatch(rule.command_pattern) : null }));
  }

  decide(call: PolicyCall, ctx: PolicyContext): PolicyVerdict {
    const v = this.attended(call, ctx);
    if (ctx.mode === 'attended' || v.decision !== 'ask') return v;
    if (v.rule === 'ask:writes') return { decision: 'allow', rule: 'unattended:writes', reason: 'Unattended run: writes inside the workspace are allowed.' };
    if (v.rule === GUARD_RULES.hardlink) return { decision: 'deny', rule: v.rule, reason: `This run is unattended, so nobody can approve this read; the file was not read. (${v.reason})` };
    // Keep the protect rule's name: the log says which pattern refused the write.
    if (v.rule.startsWith('protect:')) return { decision: 'deny', rule: v.rule, reason: `This run is unattended, so nobody can approve this write; the file was not modified. (${v.reason})` };
    return { decision: 'deny', rule: 'unattended:refuse', reason: this.unattendedReason(call, ctx, v) };
  }

  /** The verdict with a person available to ask. */
  private attended(call: PolicyCall, ctx: PolicyContext): PolicyVerdict {
    if (ctx.featureTools !== null && !ctx.featureTools.includes(call.name)) {
      const allowed = ctx.featureTools.length ? ctx.featureTools.join(', ') : 'none';
      return { decision: 'deny', rule: 'feature:tools', reason: `The current feature restricts the tools it may use to: ${allowed}. ${call.name} was not run.` };
    }
    const p = normPath(call.path);
    const cmd = call.command?.trim() ?? null;
    // A person's own deny patterns win over everything the workspace allows (its rules included).
    if (call.effect === 'exec' && !call.mcp) for (const d of this.hostDeny) if (d.re.test(cmd ?? '')) return { decision: 'deny', rule: d.id, reason: `${d.reason} The command was not run.` };
    for (const r of this.rules) {
      if (this.ruleMatches(r.rule, r.re, call, p, cmd)) {
        const unsafe = r.rule.decision === 'allow' && r.re !== null && cmd !== null ? unsafeGitArgs(cmd) : null;
        if (unsafe) return { decision: 'deny', rule: GIT_UNSAFE_RULE, reason: gitUnsafeReason(unsafe) };
        const reason = r.rule.reason ?? (r.rule.decision === 'deny' ? `Refused by the workspace policy rule "${r.id}".` : `Policy rule "${r.id}".`);
        return { decision: r.rule.decision, rule: r.id, reason };
      }
    }
    // A server's readOnly annotation is its own claim: it lifts the ask only where the config says so, after every rule.
    if (call.mcp) {
      if (call.mcp.readOnlyAllowed) return { decision: 'allow', rule: 'allow:mcp-read-only', reason: `The MCP server "${call.mcp.server}" marks ${call.mcp.tool} read-only and mcp.allow_read_only is on.` };
      return { decision: 'ask', rule: 'ask:mcp', reason: `Calls to MCP tools (server "${call.mcp.server}") are shown to a person for approval.` };
    }
    switch (call.effect) {
      case 'none':
        if ((call.hardLinks ?? 1) > 1) {
          return { decision: 'ask', rule: GUARD_RULES.hardlink, reason: `"${p}" has ${call.hardLinks} hard links; another of its names may be a file outside the workspace, so reading it needs a person's approval.` };
        }
        if (p !== null && isSecretFile(p)) return { decision: 'ask', rule: 'ask:secret-file', reason: `"${p}" usually holds secrets, so reading it needs a person's approval.` };
        return { decision: 'allow', rule: 'allow:reads', reason: 'Reading is allowed.' };
      case 'write':
        if (p !== null && HARNESS_FILE_GLOBS.some((g) => matchGlob(g, p))) {
          return { decision: 'ask', rule: 'ask:harness-files', reason: `"${p}" belongs to Kite itself (its configuration, policy or progress file); Kite updates it at the end of the run, and changing it needs a person's approval.` };
        }
        if (p !== null) {
          const pattern = protectingPattern(p, { patterns: this.protect, verifyFiles: ctx.verifyFiles ?? [], mayChange: ctx.mayChange ?? [] });
          if (pattern !== null) {
            return { decision: 'ask', rule: `protect:${pattern}`, reason: `"${p}" is protected (it defines the checks, the project's instructions, CI or dependencies); changing it needs a person's approval, or the feature's may_change.` };
          }
        }
        return { decision: 'ask', rule: 'ask:writes', reason: 'Writes are shown to a person for approval.' };
      case 'exec':
        return this.command(cmd ?? '', ctx);
    }
  }

  private command(cmd: string, ctx: PolicyContext): PolicyVerdict {
    for (const d of this.deny) if (d.re.test(cmd)) return { decision: 'deny', rule: d.id, reason: `${d.reason} The command was not run.` };
    if (ctx.checks.some((c) => c.trim() === cmd)) return { decision: 'allow', rule: 'allow:checks', reason: 'A configured check.' };
    if (ctx.verify !== null && ctx.verify.trim() === cmd) return { decision: 'allow', rule: 'allow:verify', reason: "The feature's verify command." };
    // A pattern can match more than its author meant: git options that reach outside are refused first.
    const patternAllows = this.allow.some((a) => a.re.test(cmd)) || (ctx.mode === 'attended' && this.hostAllow.some((a) => a.re.test(cmd)));
    const unsafe = patternAllows ? unsafeGitArgs(cmd) : null;
    if (unsafe) return { decision: 'deny', rule: GIT_UNSAFE_RULE, reason: gitUnsafeReason(unsafe) };
    for (const a of this.allow) if (a.re.test(cmd)) return { decision: 'allow', rule: a.id, reason: 'Allowed by the policy.' };
    // Settings allow only with a person at hand: unattended, the workspace's policy alone decides.
    if (ctx.mode === 'attended') for (const a of this.hostAllow) if (a.re.test(cmd)) return { decision: 'allow', rule: a.id, reason: 'Allowed by your Kite settings (kite.policy.allowCommands).' };
    return { decision: 'ask', rule: 'ask:commands', reason: 'Commands are shown to a person for approval.' };
  }

  private ruleMatches(rule: PolicyRule, re: { test(cmd: string): boolean } | null, call: PolicyCall, p: string | null, cmd: string | null): boolean {
    if (rule.tool !== undefined && !(Array.isArray(rule.tool) ? rule.tool : [rule.tool]).includes(call.name)) return false;
    if (rule.server !== undefined && call.mcp?.server !== rule.server) return false;
    if (rule.command !== undefined && (cmd === null || rule.command.trim() !== cmd)) return false;
    if (re !== null && (cmd === null || !re.test(cmd))) return false;
    if (rule.path !== undefined && (p === null || !matchGlob(rule.path, p))) return false;
    return true;
  }

  private unattendedReason(call: PolicyCall, ctx: PolicyContext, v: PolicyVerdict): string {
    const base = 'This run is unattended, so nobody can approve this call; it was not run.';
    if (call.mcp) return `${base} MCP tools run unattended only when a policy rule allows them (policy.rules: {"decision": "allow", "server": "${call.mcp.server}"}).`;
    if (call.effect === 'exec') {
      const ok = [...ctx.checks, ...(ctx.verify ? [ctx.verify] : [])].map((c) => `"${c}"`);
      const list = ok.length ? ` Commands that do run unattended: ${ok.join(', ')}${this.allow.length ? ', and those the policy allows' : ''}.` : '';
      return `${base} Only the configured checks, the feature's verify command and commands allowed by the policy run unattended.${list} Use read_file, list_files and search to inspect files instead.`;
    }
    return `${base} (${v.reason})`;
  }
}

export function isSecretFile(p: string): boolean {
  if (NOT_SECRET.some((g) => matchGlob(g, p))) return false;
  return SECRET_FILE_GLOBS.some((g) => matchGlob(g, p));
}

/** The rule "Always allow" appends to policy.rules for a command: an exact match. */
export function allowRuleForCommand(command: string): PolicyRule {
  const cmd = command.trim();
  const id = `allow:always:${createHash('sha256').update(cmd).digest('hex').slice(0, 8)}`;
  return { id, decision: 'allow', tool: 'run', command: cmd };
}

/** The rule "Always allow" appends for writes to one file (exact workspace-relative path). */
export function allowRuleForPath(tool: string, relPath: string): PolicyRule {
  const p = normPath(relPath) ?? relPath;
  const id = `allow:always:${createHash('sha256').update(`${tool}\0${p}`).digest('hex').slice(0, 8)}`;
  return { id, decision: 'allow', tool, path: p.replace(/[*?[{}]/g, '[$&]') };
}

/** The rule "Always allow" appends for an MCP tool: every call of that one tool. */
export function allowRuleForTool(tool: string): PolicyRule {
  const id = `allow:always:${createHash('sha256').update(`tool\0${tool}`).digest('hex').slice(0, 8)}`;
  return { id, decision: 'allow', tool };
}

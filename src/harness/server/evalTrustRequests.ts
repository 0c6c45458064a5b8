// The harness server's eval and trust requests: VS Code's Evals view runs cases here (never in the
// extension host) through the same runSuite / addCase code as `kite eval` / `kite eval add`, and
// the trust modal reads and records approvals through the same store as `kite trust`, and the Kite
// view lists the MCP servers as `kite mcp list` does.
import { relative, resolve } from 'node:path';
import { ResponseError, ErrorCodes, type CancellationToken, type Connection } from 'vscode-languageserver/node';
import type { z } from 'zod';
import { addCase, DEFAULT_SUITE } from '../evals/addCase';
import { loadSuite, type EvalCase } from '../evals/evalCase';
import { defaultJobs, runSuite } from '../evals/runSuite';
import { newEvalLogDir, writeSuiteResults } from '../evals/suiteResults';
import { resolveRunLog } from '../events/logFiles';
import { trustShown, trustStatus } from '../hooks/trustItems';
import { listMcpServers } from '../mcp/mcpServerList';
import {
  AddEvalParamsSchema,
  McpServersParamsSchema,
  Rpc,
  RunEvalsParamsSchema,
  TrustStatusParamsSchema,
  TrustWorkspaceParamsSchema,
  type AddEvalResult,
  type McpServersResult,
  type RunEvalsResult,
  type ServerLog,
  type TrustStatusWire,
  type TrustWorkspaceResult,
} from '../protocol/rpc';

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

function parse<T>(schema: z.ZodType<T>, params: unknown, method: string): T {
  const r = schema.safeParse(params);
  if (r.success) return r.data;
  throw new ResponseError(ErrorCodes.InvalidParams, `${method}: ${r.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).join('; ')}`);
}

export function bindEvalTrustRequests(connection: Connection, log: (l: ServerLog) => void): void {
  connection.onRequest(Rpc.runEvals, async (params: unknown, token: CancellationToken): Promise<RunEvalsResult> => {
    const p = parse(RunEvalsParamsSchema, params, Rpc.runEvals);
    const suite = resolve(p.suite);
    let cases: EvalCase[];
    try {
      const all = loadSuite(suite);
      const unknown = (p.cases ?? []).filter((n) => !all.some((c) => c.name === n));
      if (unknown.length) throw new Error(`${suite}: no case named ${unknown.join(', ')}`);
      cases = p.cases ? all.filter((c) => p.cases!.includes(c.name)) : all;
    } catch (e) {
      return { results: [], logDir: null, cancelled: false, error: messageOf(e) };
    }
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => {
      log({ level: 'info', message: `evals in ${suite} cancelled: the running cases stop, no new case starts` });
      controller.abort();
    });
    const logDir = newEvalLogDir(p.root);
    log({ level: 'info', message: `running ${cases.length} eval case(s) of ${suite}; logs in ${logDir}` });
    try {
      const s = await runSuite(cases, {
        models: [],
        jobs: p.jobs ?? defaultJobs(),
        logDir,
        cwd: p.root,
        signal: controller.signal,
        onResult: (result) => void connection.sendNotification(Rpc.evalCaseEnded, { suite, result }),
      });
      writeSuiteResults(logDir, suite, s);
      return { results: s.results, logDir, cancelled: controller.signal.aborted, error: null };
    } finally {
      sub.dispose();
    }
  });

  connection.onRequest(Rpc.addEval, async (params: unknown): Promise<AddEvalResult> => {
    const p = parse(AddEvalParamsSchema, params, Rpc.addEval);
    try {
      const added = await addCase({ log: resolveRunLog(p.log, p.root, p.root), suite: resolve(p.root, p.suite ?? DEFAULT_SUITE), name: p.name });
      const e = added.spec.expect;
      const expect = `outcome ${e.outcome ?? '(any)'}${e.files?.length ? `; unchanged: ${e.files.map((x) => x.path).join(', ')}` : ''}`;
      log({ level: 'info', message: `eval case written: ${relative(p.root, added.file)} (expects ${expect})` });
      return { file: added.file, name: relative(resolve(p.root, p.suite ?? DEFAULT_SUITE), added.dir), expect, error: null };
    } catch (e) {
      return { file: null, name: null, expect: null, error: messageOf(e) };
    }
  });

  connection.onRequest(Rpc.trustStatus, (params: unknown): TrustStatusWire => {
    const p = parse(TrustStatusParamsSchema, params, Rpc.trustStatus);
    try {
      return { ...trustStatus(p.root), error: null };
    } catch (e) {
      // An unreadable config: nothing can be trusted; the run reports the config error itself.
      return { root: p.root, items: [], trusted: false, hooks_trusted: false, digest: '', error: messageOf(e) };
    }
  });

  connection.onRequest(Rpc.trustWorkspace, (params: unknown): TrustWorkspaceResult => {
    const p = parse(TrustWorkspaceParamsSchema, params, Rpc.trustWorkspace);
    try {
      const file = trustShown(p.root, p.digest);
      log({ level: 'info', message: `hooks and MCP servers of ${p.root} approved on this machine (recorded in ${file})` });
      return { file, error: null };
    } catch (e) {
      return { file: null, error: messageOf(e) };
    }
  });

  // The Kite view's MCP servers; with tools, each approved server is started (sandboxed) to list them.
  connection.onRequest(Rpc.mcpServers, async (params: unknown): Promise<McpServersResult> => {
    const p = parse(McpServersParamsSchema, params, Rpc.mcpServers);
    try {
      return await listMcpServers(p.root, { tools: p.tools === true });
    } catch (e) {
      return { servers: [], shadowed: [], error: messageOf(e) };
    }
  });
}

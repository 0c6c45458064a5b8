// THE table of `kite` subcommands: name, one line for `kite --help`, and how to load the code that
// runs it. A command's module is imported only when that command runs (the bundle wraps each one
// lazily), so `kite --version`, `--help` and every command start without evaluating the others —
// the run loop, the SDKs, zod schemas (issue 17). Adding a command is one line here.

/** A command's entry: argv after the command name; resolves to the exit code (0 ok, 1 failed run, 2 usage/config). */
export type CommandMain = (argv: string[]) => Promise<number>;

export interface Command {
  name: string;
  summary: string;
  /** Imports the command's module (once; later calls reuse it) and hands back its entry. */
  load(): Promise<CommandMain>;
}

export const COMMANDS: readonly Command[] = [
  { name: 'run', summary: 'run the agent on the current feature (or --feature ID, or --all)', load: async () => (await import('./runCommand')).runMain },
  { name: 'init', summary: 'write a starter kite-progress.json and .kite/config.json', load: async () => (await import('./initCommand')).initMain },
  { name: 'resume', summary: 'continue a run that crashed or paused for approval, from its log', load: async () => (await import('./resumeCommand')).resumeMain },
  { name: 'timeline', summary: 'print the timeline of a run log', load: async () => (await import('./timelineCommand')).timelineMain },
  { name: 'cost', summary: 'tokens and dollars per run, per feature and in total', load: async () => (await import('./costCommand')).costMain },
  { name: 'cache-audit', summary: 'what invalidated the prompt cache, between runs and between turns', load: async () => (await import('./cacheAuditCommand')).cacheAuditMain },
  { name: 'diagnose', summary: 'explain why a run failed (gate causes, refusals, budgets, loops)', load: async () => (await import('./diagnoseCommand')).diagnoseMain },
  { name: 'export', summary: 'export runs: otel LOG (OTLP JSON spans) | prometheus [DIR] (metrics)', load: async () => (await import('./exportCommand')).exportMain },
  {
    name: 'debug-adapter',
    summary: 'serve the replay debugger over stdio (Debug Adapter Protocol; launch with {"log": "<run>.jsonl"})',
    load: async () => (await import('../replay/debugAdapterCommand')).debugAdapterMain,
  },
  { name: 'eval', summary: 'run an eval suite (each case in a scratch worktree), or add a case from a run log', load: async () => (await import('./evalCommand')).evalMain },
  { name: 'check', summary: 'check a past run against trajectory contracts (never, always, eventually, before)', load: async () => (await import('./checkCommand')).checkMain },
  { name: 'trust', summary: "review and approve a workspace's hook commands and MCP servers on this machine", load: async () => (await import('./trustCommand')).trustMain },
  { name: 'mcp', summary: "list the workspace's MCP servers and whether each is approved", load: async () => (await import('./mcpCommand')).mcpMain },
  { name: 'reset', summary: 'set a feature back to todo after a run that did not end done (notes kept)', load: async () => (await import('./resetCommand')).resetMain },
  { name: 'restore', summary: 'put the files a run touched back to their content right after one of its events', load: async () => (await import('./restoreCommand')).restoreMain },
];

/** Runs a command from the table: its module is loaded first. */
export async function runCommandOf(cmd: Command, argv: string[]): Promise<number> {
  const main = await cmd.load();
  return main(argv);
}

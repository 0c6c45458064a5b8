// Every command this part of Kite registers. Kept free of imports so activation can register
// cheap proxies for them at once and load the real implementation (zod, the RPC client) lazily.
export const KITE_COMMANDS = [
  'kite.startAgent',
  'kite.startAgentOnFeature',
  'kite.stopAgent',
  'kite.resumeRun',
  'kite.retryFeature',
  'kite.resetFeature',
  'kite.openRun',
  'kite.openLastRun',
  'kite.replayRun',
  'kite.refreshViews',
  'kite.init',
  'kite.setApiKey',
  'kite.acceptAll',
  'kite.rejectAll',
  'kite.acceptHunk',
  'kite.rejectHunk',
  'kite.approval.open',
  'kite.approval.runOnce',
  'kite.approval.alwaysAllow',
  'kite.approval.deny',
  'kite.evals.runAll',
  'kite.evals.runCase',
  'kite.evals.openLog',
  'kite.evals.refresh',
  'kite.addToEvals',
  'kite.openWalkthrough',
] as const;

export type KiteCommandId = (typeof KITE_COMMANDS)[number];

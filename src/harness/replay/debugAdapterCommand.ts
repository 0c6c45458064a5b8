// `kite debug-adapter`: the replay debugger over stdio, for any DAP client (nvim-dap, Emacs
// dap-mode, a CI script). Stdout carries the protocol, so help goes to stderr.
export async function debugAdapterMain(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write(
      'usage: kite debug-adapter\n' +
        '  Speaks the Debug Adapter Protocol on stdin/stdout. Launch arguments:\n' +
        '    log          path of a .kite/runs/<run>.jsonl log (required)\n' +
        '    stopOnEntry  stop at the first event (default true)\n' +
        '    seq          open stopped at this event\n' +
        '    root         workspace folder for frames on edited files (default: recorded root)\n',
    );
    return 0;
  }
  if (argv.length) {
    process.stderr.write(`kite debug-adapter: unexpected argument "${argv[0]}" (launch arguments come over the protocol)\n`);
    return 2;
  }
  const { runDebugAdapter } = await import('./runDebugAdapter');
  return runDebugAdapter();
}

// Stand-alone debug adapter over stdio. (Filled in by the debugger work.)
process.exit(0);

// Harness server process entry (JSON-RPC over stdio). (Filled in by the extension work.)
process.exit(0);

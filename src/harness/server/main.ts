// Harness server process (dist/harnessServer.js): the extension starts it as a child process and
// speaks JSON-RPC to it (Node IPC). Runs, approvals and cancellation live here, never in the
// extension host. stdout is free (IPC transport), but we log through the connection anyway.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { runFeature } from '../run';
import { bindConnection } from './bindConnection';
import { resumeStarter } from './resumeStarter';

const connection = createConnection(ProposedFeatures.all);
bindConnection(connection, { runFeature, resumeRun: resumeStarter });
connection.listen();

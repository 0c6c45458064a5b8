// Timeline webview entry (bundled to dist/webview/timeline.js, with timeline.css beside it).
// Only the @vscode-elements controls the page uses are imported, to keep the bundle small.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import './timeline.css';
import { z } from 'zod';
import { TimelineApp, type VsCodeApi } from './app';

// The CSP has no 'unsafe-eval': tell zod not to try compiling validators with new Function.
z.config({ jitless: true });

declare function acquireVsCodeApi(): VsCodeApi;

const root = document.getElementById('app') ?? document.body;
const app = new TimelineApp(root, acquireVsCodeApi());
// For the browser tests and the benchmark: lets them read state without private hooks.
(window as unknown as { kiteTimeline: TimelineApp }).kiteTimeline = app;

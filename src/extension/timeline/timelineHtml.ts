// The HTML of the timeline webview. Pure (no 'vscode'), so the browser tests load the very page
// the extension serves. CSP: nothing by default; the script only by nonce; styles, fonts and
// images only from dist/webview (the webview's cspSource with localResourceRoots set to it).
import { randomBytes } from 'node:crypto';

export interface TimelineHtmlOptions {
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  title: string;
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function timelineHtml(o: TimelineHtmlOptions): string {
  const csp = [
    "default-src 'none'",
    `img-src ${o.cspSource} data:`,
    `style-src ${o.cspSource}`,
    `font-src ${o.cspSource}`,
    `script-src 'nonce-${o.nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(o.styleUri)}">
<title>${escapeText(o.title)}</title>
</head>
<body>
<div id="app"></div>
<script nonce="${o.nonce}" src="${escapeAttr(o.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

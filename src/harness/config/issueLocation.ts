// Where in a person's JSON text a schema problem is: "file:line:column" makes the message a link in
// a terminal and lets the Features view open the file at the problem rather than at line 1.
import { findNodeAtLocation, parseTree, stripComments } from './jsonc';
import { lineColumn } from './jsonText';

/**
 * The line and column of the value at `path` (for an unknown key: of the key itself). A path that
 * is not in the text (a missing field) points at its nearest existing parent.
 */
export function issueLocation(text: string, path: readonly PropertyKey[], unknownKey?: string): { line: number; column: number } | null {
  // Comments blanked, not removed, newlines kept: lines and columns still match the person's text.
  const plain = stripComments(text, ' ');
  const tree = parseTree(plain);
  if (!tree) return null;
  const segments = path.map((p) => (typeof p === 'number' ? p : String(p)));
  if (unknownKey !== undefined) {
    const value = findNodeAtLocation(tree, [...segments, unknownKey]);
    const property = value?.parent;
    if (property?.type === 'property') return lineColumn(plain, property.offset);
  }
  for (let n = segments.length; n >= 0; n--) {
    const node = findNodeAtLocation(tree, segments.slice(0, n));
    if (node) return lineColumn(plain, node.offset);
  }
  return null;
}

// How a hook is named wherever a person sees one (the debugger, the timeline webview, kite trust,
// the trust prompt): its event, and the matcher that selected it (a tool name regex, a
// SessionStart source), e.g. "PreToolUse [write_file|edit_file]", "SessionStart [startup]".
export const hookLabel = (h: { event: string; matcher?: string | null }): string => `${h.event}${h.matcher ? ` [${h.matcher}]` : ''}`;

// The prompt of the separate model call that summarizes older turns when the conversation must
// shrink (context/compactor.ts). Written for a real Claude: it is told what the summary is for,
// what must survive, and that what it writes replaces the turns it reads.
export const COMPACTION_SYSTEM = [
  'You are summarizing the earlier part of a coding session so that the coding agent (another instance of you) can continue it with less context.',
  'The agent works inside a harness called Kite on exactly one feature; a verification gate runs the feature\'s checks when the agent says it is done.',
  'Your summary REPLACES the turns you are shown: the agent will not see them again. Write for that agent, in the second person ("you read…, you changed…").',
  '',
  'Keep, concretely and briefly:',
  '- what the task is and what is already done (files created or changed, with their paths and what changed);',
  '- what was learned that still matters (where things live, function names, how the tests are run, what failed and why);',
  '- what is still open or was about to be done next;',
  '- any instruction, refusal or denial the agent was given, in substance (the harness also keeps these word for word).',
  'Drop file contents and command output unless a short exact snippet is essential; the agent can read files again.',
  'Do not invent anything that is not in the transcript. Do not call tools. Answer with the summary only, under 400 words.',
].join('\n');

/** The user message of the summary call: the turns to summarize, as plain text. */
export function compactionRequestText(transcript: string, previousSummary: string | null): string {
  return (
    (previousSummary ? `An earlier part of the session was already summarized as follows:\n\n${previousSummary}\n\n` : '') +
    `Summarize the following turns of the session (oldest first):\n\n${transcript}`
  );
}

// What the person in the attended crash test adds to the agent's new test file before approving it.
export const REVIEW_NOTE = '\n// reviewed by a person\n';

// The one place that decides how the messages sent to the model are assembled. The loop builds
// its conversation with it while running; the reducer rebuilds the same conversation from the log.
// Keeping one implementation is what makes resume and replay exact.
import { summaryBlockText, type CompactionEvent } from './compaction';
import { ChunkedList } from './chunkedList';
import type { AssistantBlock, Message, ToolResultBlock, ToolUseBlock, UserBlock } from './content';

export class Conversation {
  /** Chunked: a clone (a reducer snapshot) shares the finished messages instead of copying them. */
  private done = new ChunkedList<Message>();
  private doneArray: Message[] | null = null; // finished() as an array (this instance's own, never a clone's)
  private pendingResults = new Map<string, ToolResultBlock>();
  private pendingToolUses: ToolUseBlock[] = [];
  private pendingTexts: string[] = [];
  /** The first message's blocks before any summary (the briefing): a later summary replaces the
   *  earlier one instead of nesting it. */
  private head: UserBlock[] | null = null;

  /** Text the harness says to the model (briefing, gate feedback, notices). */
  addUserText(text: string): void {
    this.pendingTexts.push(text);
  }

  addAssistant(content: AssistantBlock[]): void {
    this.flushUser();
    this.pushDone({ role: 'assistant', content });
    this.pendingToolUses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    this.pendingResults = new Map();
  }

  addToolResult(toolUseId: string, output: string, isError: boolean): void {
    const block: ToolResultBlock = { type: 'tool_result', tool_use_id: toolUseId, content: output };
    if (isError) block.is_error = true;
    this.pendingResults.set(toolUseId, block);
  }

  /** Applies a `compaction` event: its stubs replace those tool results, its summary replaces
   *  messages [1, through) and joins the first message after the briefing. Only finished
   *  messages change; the pending user message (the newest results) never does. */
  applyCompaction(e: Pick<CompactionEvent, 'stubbed' | 'summary'>): void {
    if (e.stubbed.length) {
      const stubs = new Map(e.stubbed.map((s) => [s.id, s.stub]));
      for (let i = 0; i < this.done.length; i++) {
        const m = this.done.at(i);
        if (m.role !== 'user' || !m.content.some((b) => b.type === 'tool_result' && stubs.has(b.tool_use_id))) continue;
        const content = m.content.map((b) => (b.type === 'tool_result' && stubs.has(b.tool_use_id) ? { ...b, content: stubs.get(b.tool_use_id)! } : b));
        this.done.set(i, { role: 'user', content } as Message);
        this.doneArray = null;
      }
    }
    const s = e.summary;
    if (s && this.done.length > s.through && this.done.at(0).role === 'user') {
      this.head ??= [...(this.done.at(0).content as UserBlock[])];
      const first: Message = { role: 'user', content: [...this.head, { type: 'text', text: summaryBlockText(s) }] };
      const all = this.done.toArray();
      all.splice(0, s.through, first);
      this.done = ChunkedList.from(all); // rare: a summary rewrites the head of the conversation
      this.doneArray = null;
    }
  }

  /** The finished messages (compaction plans over them; never mutate). */
  finished(): readonly Message[] {
    return (this.doneArray ??= this.done.toArray());
  }

  /** tool_use ids of the last assistant message that have no result yet. */
  unansweredToolUses(): ToolUseBlock[] {
    return this.pendingToolUses.filter((u) => !this.pendingResults.has(u.id));
  }

  /** The messages to send now: finished ones plus the pending user message, if any. */
  messages(): Message[] {
    const pending = this.pendingUser();
    const msgs = this.done.toArray();
    if (pending) msgs.push(pending);
    return msgs;
  }

  /** An independent copy (snapshots of the reducer's state). Blocks are shared: they are never mutated. */
  clone(): Conversation {
    const c = new Conversation();
    c.done = this.done.copy();
    c.pendingResults = new Map(this.pendingResults);
    c.pendingToolUses = [...this.pendingToolUses];
    c.pendingTexts = [...this.pendingTexts];
    c.head = this.head;
    return c;
  }

  get length(): number {
    return this.done.length + (this.pendingUser() ? 1 : 0);
  }

  private pendingUser(): Message | null {
    const blocks: UserBlock[] = [];
    for (const use of this.pendingToolUses) {
      const r = this.pendingResults.get(use.id);
      if (r) blocks.push(r);
    }
    for (const text of this.pendingTexts) blocks.push({ type: 'text', text });
    return blocks.length ? { role: 'user', content: blocks } : null;
  }

  private flushUser(): void {
    const pending = this.pendingUser();
    if (pending) this.pushDone(pending);
    this.pendingTexts = [];
    this.pendingResults = new Map();
    this.pendingToolUses = [];
  }

  private pushDone(m: Message): void {
    this.done.push(m);
    this.doneArray?.push(m); // kept up to date: the loop asks for finished() every turn
  }
}

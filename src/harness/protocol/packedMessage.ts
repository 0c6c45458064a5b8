// A big message to the timeline webview travels packed: the UTF-8 bytes of its JSON in one
// ArrayBuffer. VS Code serializes a webview message with JSON.stringify and a replacer (looking for
// ArrayBuffers to send apart): a JavaScript call per value of every event, on the extension host —
// ~13 s of CPU while a 1M-event timeline loads, plus the remote protocol copying the string again.
// A buffer is replaced once and sent as bytes. The page unpacks, then validates as for any message.

/** The wire form of a packed message. */
export interface PackedMessage {
  type: 'packed';
  json: ArrayBuffer;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The message packed. The buffer holds exactly its JSON (VS Code sends a view's whole buffer;
 *  TextEncoder.encode returns a fresh one of exactly the encoded length). */
export function pack(message: object): PackedMessage {
  return { type: 'packed', json: encoder.encode(JSON.stringify(message)).buffer as ArrayBuffer };
}

/** A message as it arrived, unpacked when it was packed; `error` when its bytes are not JSON. */
export function unpack(raw: unknown): { message: unknown } | { error: string } {
  if (typeof raw !== 'object' || raw === null || (raw as { type?: unknown }).type !== 'packed') return { message: raw };
  const json = (raw as { json?: unknown }).json;
  if (!(json instanceof ArrayBuffer) && !ArrayBuffer.isView(json)) return { error: 'a packed message without its bytes' };
  try {
    return { message: JSON.parse(decoder.decode(json)) as unknown };
  } catch (e) {
    return { error: `a packed message that is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

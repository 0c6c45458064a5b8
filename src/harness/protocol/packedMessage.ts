// A big message to the timeline webview travels packed: the UTF-8 bytes of its JSON in one
// ArrayBuffer. VS Code serializes a webview message with JSON.stringify and a replacer (looking for
// ArrayBuffers to send apart): a JavaScript call per value of every event, on the extension host —
// ~13 s of CPU while a 1M-event timeline loads, plus the remote protocol copying the string again.
// A buffer is replaced once and sent as bytes. The page unpacks, then validates as for any message.
// A history batch is also deflated (events/deflatePacked.ts, where it is read): JSON of events is
// 5-10 times smaller so, and every byte posted costs the extension host twice — VS Code's copy of it
// for its protocol and, in a remote window, its websocket's deflate — plus the collections of those
// buffers. The page inflates it natively (DecompressionStream), off the order of nothing: messages
// are applied in the order they came (webview-ui/app.ts).

/** The wire form of a packed message. */
export interface PackedMessage {
  type: 'packed';
  json: ArrayBuffer;
  /** The bytes are the JSON deflated (raw deflate, RFC 1951). */
  deflated?: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The message packed. The buffer holds exactly its JSON (VS Code sends a view's whole buffer;
 *  TextEncoder.encode returns a fresh one of exactly the encoded length). */
export function pack(message: object): PackedMessage {
  return { type: 'packed', json: encoder.encode(JSON.stringify(message)).buffer as ArrayBuffer };
}

export type Unpacked = { message: unknown } | { error: string };

/** Whether the message is packed and deflated: unpackDeflated reads it (asynchronously). */
export function isDeflated(raw: unknown): boolean {
  return isPacked(raw) && (raw as { deflated?: unknown }).deflated === true;
}

/** A message as it arrived, unpacked when it was packed; `error` when its bytes are not JSON (or
 *  deflated: those go through unpackDeflated). */
export function unpack(raw: unknown): Unpacked {
  if (!isPacked(raw)) return { message: raw };
  if (isDeflated(raw)) return { error: 'a deflated message read as a plain one' };
  const json = (raw as { json?: unknown }).json;
  if (!(json instanceof ArrayBuffer) && !ArrayBuffer.isView(json)) return { error: 'a packed message without its bytes' };
  try {
    return { message: JSON.parse(decoder.decode(json)) as unknown };
  } catch (e) {
    return { error: `a packed message that is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** A packed message whose bytes are deflated, inflated and unpacked; `error` when they are not. */
export async function unpackDeflated(raw: unknown): Promise<Unpacked> {
  const json = (raw as { json?: unknown }).json;
  if (!(json instanceof ArrayBuffer) && !ArrayBuffer.isView(json)) return { error: 'a packed message without its bytes' };
  let inflated: ArrayBuffer;
  try {
    const stream = new Blob([json as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    inflated = await new Response(stream).arrayBuffer();
  } catch (e) {
    return { error: `a deflated message that does not inflate (${e instanceof Error ? e.message : String(e)})` };
  }
  return unpack({ type: 'packed', json: inflated });
}

function isPacked(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'packed';
}

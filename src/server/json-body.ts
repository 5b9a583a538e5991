/** Elements of an array serialised in one piece. */
const SLICE = 256;
/** Text gathered before it is encoded into its own Buffer. */
const PIECE_CHARS = 16_384;

/** An object JSON.stringify writes key by key: no arrays, class instances or toJSON. */
const plain = (v: object) => {
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
};

/**
 * JSON.stringify(value) as UTF-8 bytes, built without any string of the whole body. A large reply
 * serialised in one go is a string of hundreds of kB: V8 keeps it as a rope, and sending it flattens
 * it twice (Fastify's content-length, then Node's header + body write), each time into a new
 * large-object page range the process touches for the first time (docs/performance.md). Here long
 * arrays go out SLICE elements at a time and text is encoded every PIECE_CHARS, so every string stays
 * small; the pieces are joined once, as bytes.
 */
export function jsonBody(value: unknown): Buffer {
  const pieces: Buffer[] = [];
  let text = '';
  const put = (s: string) => {
    text += s;
    if (text.length >= PIECE_CHARS) {
      pieces.push(Buffer.from(text, 'utf8'));
      text = '';
    }
  };
  /** The objects being written, outermost first: a value met again inside itself is a cycle, as JSON.stringify says. */
  const open = new Set<object>();
  const enter = (v: object) => {
    if (open.has(v)) throw new TypeError('Converting circular structure to JSON');
    open.add(v);
  };
  const write = (v: unknown): void => {
    if (Array.isArray(v) && v.length > SLICE) {
      enter(v);
      put('[');
      for (let i = 0; i < v.length; i += SLICE) {
        const part = JSON.stringify(v.slice(i, i + SLICE));
        put(i === 0 ? part.slice(1, -1) : `,${part.slice(1, -1)}`);
      }
      put(']');
      open.delete(v);
    } else if (v !== null && typeof v === 'object' && plain(v)) {
      enter(v);
      put('{');
      let first = true;
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        put(`${first ? '' : ','}${JSON.stringify(k)}:`);
        first = false;
        write(x);
      }
      put('}');
      open.delete(v);
    } else {
      put(JSON.stringify(v) ?? 'null');
    }
  };
  write(value);
  if (text) pieces.push(Buffer.from(text, 'utf8'));
  return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
}

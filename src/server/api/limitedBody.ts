/**
 * A request's body, read as it arrives and given up on at `maxBytes`: null when it is larger. A Content-Length
 * above the limit is refused before a byte is read; without one (chunked), the bytes are counted and reading stops
 * at the limit, so a client cannot make the server hold more than `maxBytes` of its body in memory, whatever it
 * sends. Reading stopped early cancels the body: the rest is never read.
 */
export async function readBodyUpTo(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return null;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

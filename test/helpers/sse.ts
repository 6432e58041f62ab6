/** One Server-Sent Events message: its `id:` (when sent) and its `data:` line. */
export type SseEvent = { id: string | undefined; data: string };

/**
 * The complete events at the start of `buf` (each ends with a blank line) and what is left of it
 * (a partial event, waiting for more bytes). A block without a `data:` line (a comment, a
 * heartbeat) is skipped.
 */
export function takeSseEvents(buf: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  let rest = buf;
  for (let i = rest.indexOf("\n\n"); i >= 0; i = rest.indexOf("\n\n")) {
    const block = rest.slice(0, i);
    rest = rest.slice(i + 2);
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (data !== undefined) events.push({ id: /^id: (.*)$/m.exec(block)?.[1], data });
  }
  return { events, rest };
}

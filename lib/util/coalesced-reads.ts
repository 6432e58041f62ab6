/**
 * Point reads by key that share statements under load, like a group commit: a read goes at the
 * end of the event loop's turn, with the others that turn brought, when none of its kind is in
 * flight; the ones that arrive while one is in flight wait for it and then go together, as one
 * `loadMany` of their distinct keys. Alone, a read costs what it did; at
 * a thousand a second, each statement (its round trip, its parse and bind in PostgreSQL, its
 * socket write here) answers many requests. Exact, unlike a cache: every read still sees the
 * store as it is after the request arrived. A failed `loadMany` fails the reads it carried only.
 */
export function coalescedReads<R>(loadMany: (keys: string[]) => Promise<Map<string, R>>): (key: string) => Promise<R | undefined> {
  type Waiter = { resolve: (r: R | undefined) => void; reject: (err: unknown) => void };
  let waiting = new Map<string, Waiter[]>();
  let inFlight = false;

  const flush = async () => {
    try {
      while (waiting.size) {
        const batch = waiting;
        waiting = new Map();
        try {
          const found = await loadMany([...batch.keys()]);
          for (const [k, ws] of batch) for (const w of ws) w.resolve(found.get(k));
        } catch (err) {
          for (const ws of batch.values()) for (const w of ws) w.reject(err);
        }
      }
    } finally {
      inFlight = false;
    }
  };

  return (key) =>
    new Promise((resolve, reject) => {
      const ws = waiting.get(key);
      if (ws) ws.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (inFlight) return;
      // Sent at the end of this turn of the event loop, with every read the same turn brings.
      // A lone read pays for that: postgres.js queues its own write in a setImmediate too, so a
      // query made from this one goes out one loop iteration later than a direct read would (a
      // few tens of microseconds idle; under load, after that iteration's I/O callbacks).
      inFlight = true;
      setImmediate(() => void flush());
    });
}

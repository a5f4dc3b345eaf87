/**
 * Cycles of a directed graph, one per strongly connected component that has more than one node (or a node that
 * points at itself): enough to name every group of folders that depend on each other, without listing each of
 * the many loops a large tangle contains.
 */
export function findCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const nodes = new Set<string>(edges.keys());
  for (const targets of edges.values()) for (const t of targets) nodes.add(t);

  // Tarjan's algorithm.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;

  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) connect(v);

  return components
    .filter((c) => c.length > 1 || edges.get(c[0]!)?.has(c[0]!))
    .map((c) => cycleThrough(c, edges))
    .sort((a, b) => a.join().localeCompare(b.join()));
}

/** One concrete loop inside a strongly connected component, starting from its first node by name. */
function cycleThrough(component: string[], edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  // Breadth-first from start back to start, inside the component: the shortest loop through it.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of [...(edges.get(v) ?? [])].sort()) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

// State that one process sets once and every bundle must see. The bundles (scripts/bundle.mjs) each
// carry their own copy of the modules they both use, so a module-level variable set by the core's
// main() (which caches to use) is unset in the second bundle's copy, and `run`, which lives there,
// silently went without. Such state lives in one object per process instead, found under a
// registered symbol: every copy of a module gets the same object.
export function processState<T extends object>(name: string, init: () => T): T {
  const slots = globalThis as unknown as Record<symbol, T | undefined>;
  const key = Symbol.for(`oxo-flow.${name}`);
  let state = slots[key];
  if (state === undefined) {
    state = init();
    slots[key] = state;
  }
  return state;
}

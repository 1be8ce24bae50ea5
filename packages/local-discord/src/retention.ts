// How much the local Discord keeps of what it saw: everything by default (a test reads it all back), the newest
// `retain` entries when FakeDiscordOptions.retain says so (the playground, which runs until stopped).

/** Drops a map's oldest entries (insertion order) past `max`. */
export function keepNewest<K, V>(map: Map<K, V>, max: number, dropped?: (value: V) => void): void {
  while (map.size > max) {
    const oldest = map.entries().next();
    if (oldest.done === true) return;
    map.delete(oldest.value[0]);
    dropped?.(oldest.value[1]);
  }
}

/** Drops an array's first entries past `max`. */
export function keepLast<T>(list: T[], max: number): void {
  if (list.length > max) list.splice(0, list.length - max);
}

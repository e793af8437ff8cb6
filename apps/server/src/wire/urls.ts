/** LXD-style resource URLs: names URL-encoded, `?project=` only outside the default project. */
export function resourceUrl(base: string, name: string, project?: string): string {
  const url = `${base}/${encodeURIComponent(name)}`;
  return project !== undefined && project !== "default"
    ? `${url}?project=${encodeURIComponent(project)}`
    : url;
}

/** `?recursion=0` lists URLs, higher levels list objects (LXD's list convention). */
export function listing<T>(
  items: readonly T[],
  recursion: number,
  url: (item: T) => string,
  full: (item: T) => unknown,
): unknown[] {
  return recursion === 0 ? items.map(url) : items.map(full);
}

// What the gateway reads of supabase/config.toml: `key = value` lines under `[section]` headers,
// comments dropped. Enough for the few settings the local stack honours as a hosted project does
// (a function's verify_jwt, the Web3 provider, Auth's rate limits); values stay as written.

/** Each section's keys and their values as written (`"quoted"` keeps its quotes). */
export function tomlSections(toml: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  for (const raw of toml.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      const name = header[1]?.trim() ?? '';
      current = sections.get(name) ?? new Map<string, string>();
      sections.set(name, current);
      continue;
    }
    const setting = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (current && setting?.[1] && setting[2]) current.set(setting[1], setting[2].trim());
  }
  return sections;
}

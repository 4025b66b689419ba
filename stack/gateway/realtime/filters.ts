// postgres_changes filters as hosted Realtime accepts them: "column=op.value"
// with eq, neq, lt, lte, gt, gte and in.(a,b).

export type RowFilter = {
  column: string;
  op: 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';
  values: string[];
};

const OPS = new Set(['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in']);

export function parseFilter(text: string | undefined | null): RowFilter | null | string {
  if (text === undefined || text === null || text === '') return null;
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=([a-z]+)\.(.*)$/s.exec(text);
  if (!match) return `invalid filter "${text}": expected column=operator.value`;
  const [, column = '', op = '', value = ''] = match;
  if (!OPS.has(op)) return `invalid filter "${text}": unsupported operator "${op}"`;
  if (op === 'in') {
    const list = /^\((.*)\)$/s.exec(value);
    if (!list) return `invalid filter "${text}": in needs a list like in.(a,b)`;
    const values = (list[1] ?? '').split(',').map((v) => v.trim().replace(/^"(.*)"$/, '$1'));
    return { column, op, values };
  }
  return { column, op: op as RowFilter['op'], values: [value] };
}

export function matchesFilter(filter: RowFilter | null, row: Record<string, unknown> | null): boolean {
  if (filter === null) return true;
  if (row === null || !(filter.column in row)) return false;
  const cell = row[filter.column];
  if (cell === null || cell === undefined) return false;
  const text = typeof cell === 'string' ? cell : JSON.stringify(cell);
  const [first = ''] = filter.values;
  switch (filter.op) {
    case 'eq':
      return text === first;
    case 'neq':
      return text !== first;
    case 'in':
      return filter.values.includes(text);
    default: {
      const order = compare(text, first);
      if (filter.op === 'lt') return order < 0;
      if (filter.op === 'lte') return order <= 0;
      if (filter.op === 'gt') return order > 0;
      return order >= 0;
    }
  }
}

function compare(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

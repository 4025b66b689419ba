import type { DrawnAt } from '../transition-keys.ts';

// Colours the arrows of a drawn diagram that the session has taken. Mermaid's
// state diagrams cannot style an arrow in their source (no linkStyle), but
// they number the arrows they draw (`data-id="edge<n>"`, see
// scripts/machine-diagram.ts), and an arrow's label holds one line per
// transition, separated by <br>: each taken line gets a span of its own.

export const TAKEN_EDGE_CLASS = 'taken-edge';
export const TAKEN_LINE_CLASS = 'taken-line';

/** The lines of an arrow's label, each wrapped in a span (once). */
function labelLines(svg: Element, edge: number): HTMLElement[] {
  const text = svg.querySelector(`g.label[data-id="edge${edge}"] p`);
  if (!text) return [];
  const wrapped = [...text.querySelectorAll<HTMLElement>(':scope > span[data-line]')];
  if (wrapped.length > 0) return wrapped;
  const lines: HTMLElement[] = [];
  let current: HTMLElement | null = null;
  for (const child of [...text.childNodes]) {
    if (child.nodeName.toLowerCase() === 'br') {
      current = null;
      continue;
    }
    if (!current) {
      current = text.ownerDocument.createElement('span');
      current.dataset['line'] = String(lines.length);
      text.insertBefore(current, child);
      lines.push(current);
    }
    current.append(child);
  }
  return lines;
}

/** Marks the taken arrows and label lines; inline, since Mermaid's own styles sit in the SVG. */
export function markTaken(svg: Element, taken: readonly DrawnAt[], dark: boolean): void {
  const colour = dark ? '#4ade80' : '#15803d';
  // Darker on the light theme's grey label background, to keep the text's contrast.
  const textColour = dark ? '#4ade80' : '#166534';
  for (const { edge, line } of taken) {
    const path = svg.querySelector<SVGElement>(`path[data-edge][data-id="edge${edge}"]`);
    if (path) {
      path.classList.add(TAKEN_EDGE_CLASS);
      path.style.setProperty('stroke', colour, 'important');
      path.style.setProperty('stroke-width', '3px', 'important');
    }
    const text = labelLines(svg, edge)[line];
    if (text) {
      text.classList.add(TAKEN_LINE_CLASS);
      text.style.setProperty('color', textColour, 'important');
      text.style.setProperty('text-decoration', 'underline');
    }
  }
}

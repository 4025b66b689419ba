import type { ReportData, ReportMachine } from './report.ts';

// The report page: plain HTML, its data as JSON in a script element, and a
// small inline script that draws each diagram with the Mermaid bundle next to
// the page (no network), colours the arrows, and highlights a path on click.
//
// Mermaid's state diagrams style states (classDef/class, already in the data's
// source) but not arrows (no linkStyle), so the script colours the drawn
// arrows itself: Mermaid numbers them `data-id="edge<n>"` in the order of the
// source, which is how report.ts names them. Everything taken from the data is
// escaped: as text into HTML, as JSON into the script element.

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON that cannot end its script element or be read as HTML. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const ratio = ({ covered, total }: { covered: number; total: number }) => `${covered}/${total}`;

function machineSection(machine: ReportMachine, index: number): string {
  const name = escapeHtml(machine.machine);
  const missing = machine.missing.map(
    ({ kind, name: item, reason }) =>
      `<li><span class="kind">${kind}</span> <code>${escapeHtml(item)}</code>${
        reason === null ? ' <strong>(no reason given)</strong>' : ` — ${escapeHtml(reason)}`
      }</li>`,
  );
  const paths = machine.pathList.map(
    (path, at) =>
      `<li><button type="button" class="path" data-machine="${index}" data-path="${at}" aria-pressed="false">${escapeHtml(path.title)}</button></li>`,
  );
  return `
<section class="machine" id="machine-${index}-section" aria-labelledby="machine-${index}-heading">
  <h2 id="machine-${index}-heading">${name}</h2>
  <p class="counts">${machine.paths} ${machine.paths === 1 ? 'path' : 'paths'} · states ${ratio(machine.states)} · transitions ${ratio(machine.transitions)}</p>
  <button type="button" class="zoom" data-machine="${index}" aria-pressed="false">Actual size</button>
  <div class="drawing" id="machine-${index}-drawing" data-state="drawing" tabindex="0" role="group" aria-label="Statechart of ${name}">
    <p class="status">Drawing the diagram…</p>
  </div>
  <p class="selected" id="machine-${index}-selected" aria-live="polite"></p>
  ${missing.length > 0 ? `<h3>Not covered</h3>\n  <ul class="missing">${missing.join('\n')}</ul>` : ''}
  <h3>Paths</h3>
  ${paths.length > 0 ? `<ol class="paths">${paths.join('\n')}</ol>` : '<p>No path recorded.</p>'}
</section>`;
}

function totalsTable(data: ReportData): string {
  const rows = data.machines.map(
    (machine, index) =>
      `<tr><th scope="row"><a href="#machine-${index}-section">${escapeHtml(machine.machine)}</a></th><td>${machine.paths}</td><td>${ratio(machine.states)}</td><td>${ratio(machine.transitions)}</td></tr>`,
  );
  return `<table class="totals">
  <thead><tr><th scope="col">machine</th><th scope="col">paths</th><th scope="col">states</th><th scope="col">transitions</th></tr></thead>
  <tbody>${rows.join('\n')}</tbody>
</table>`;
}

export function renderPathsPage(data: ReportData): string {
  const title = escapeHtml(data.title);
  const goal =
    data.goal < 1 ? ` Goal: ${Number((data.goal * 100).toFixed(1))} % of the states and transitions.` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main id="report">
<h1>${title}</h1>
<nav id="reports-nav" aria-label="Path coverage reports"></nav>
<p class="verdict ${data.passed ? 'passed' : 'failed'}"><strong>${data.passed ? 'Passed' : 'Failed'}</strong> <code>${escapeHtml(data.summary)}</code>${goal}</p>
${totalsTable(data)}
<ul class="legend" aria-label="Legend">
  <li><span class="swatch covered"></span> covered by the paths (state filled, arrow and label line green)</li>
  <li><span class="swatch missing"></span> not covered (red, dashed)</li>
  <li><span class="swatch partial"></span> an arrow some of whose transitions (label lines) are covered</li>
  <li><span class="swatch path"></span> the path chosen below (click a path; click it again to clear)</li>
</ul>
${data.machines.map(machineSection).join('\n')}
</main>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script src="reports.js"></script>
<script src="mermaid.min.js"></script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = `
:root { --covered: #15803d; --missing: #b91c1c; --partial: #b45309; --path: #1d4ed8; color: #141824; background: #f8fafc; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; }
main { max-width: 1280px; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
nav a { margin-right: 1rem; }
nav a[aria-current] { font-weight: 700; color: inherit; text-decoration: none; }
.verdict.passed strong { color: var(--covered); }
.verdict.failed strong { color: var(--missing); }
table.totals { border-collapse: collapse; margin: .5rem 0 1rem; }
table.totals th, table.totals td { padding: .15rem .75rem; border-bottom: 1px solid #d0d5dd; text-align: right; }
table.totals th[scope=row], table.totals thead th:first-child { text-align: left; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; }
.swatch { display: inline-block; width: 1.6rem; height: .3rem; vertical-align: middle; border-radius: 2px; }
.swatch.covered { background: var(--covered); }
.swatch.missing { background: repeating-linear-gradient(90deg, var(--missing) 0 6px, transparent 6px 9px); }
.swatch.partial { background: var(--partial); }
.swatch.path { background: var(--path); height: .5rem; }
.machine { margin-top: 2.5rem; border-top: 1px solid #d0d5dd; }
.drawing { overflow: auto; max-height: 80vh; padding: .5rem; background: #fff; border: 1px solid #d0d5dd; border-radius: 6px; }
.drawing svg { display: block; max-width: 100%; height: auto; }
.drawing.actual-size svg { max-width: none; }
.zoom { font: inherit; margin-bottom: .5rem; }
.paths { padding-left: 2.5rem; }
.paths button { font: inherit; text-align: left; background: none; border: 1px solid transparent; border-radius: 4px; padding: .1rem .4rem; cursor: pointer; color: inherit; }
.paths button:hover { border-color: #d0d5dd; }
.paths button[aria-pressed=true] { border-color: var(--path); background: #dbeafe; }
.missing .kind { color: var(--missing); }
#report svg path[data-edge].cov-covered { stroke: var(--covered) !important; stroke-width: 2px !important; }
#report svg path[data-edge].cov-missing { stroke: var(--missing) !important; stroke-width: 2px !important; stroke-dasharray: 6 4 !important; }
#report svg path[data-edge].cov-partial { stroke: var(--partial) !important; stroke-width: 2px !important; }
#report svg .label-line.cov-covered { color: var(--covered) !important; }
#report svg .label-line.cov-missing { color: var(--missing) !important; text-decoration: underline wavy; }
#report .showing-path svg path[data-edge]:not(.on-path), #report .showing-path svg g.edgeLabel:not(.on-path), #report .showing-path svg g.node:not(.on-path) { opacity: .3; }
#report svg path[data-edge].on-path { stroke: var(--path) !important; stroke-width: 4px !important; stroke-dasharray: none !important; }
#report svg .label-line.on-path { color: var(--path) !important; background: #dbeafe; text-decoration: none; }
`;

// Plain JavaScript, run by the browser as it is: no build step, no framework.
const SCRIPT = `
(async () => {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const here = decodeURIComponent(location.pathname.split('/').pop() || 'index.html');
  const nav = document.getElementById('reports-nav');
  const reports = Array.isArray(window.pathReports) ? window.pathReports : [];
  if (reports.length > 1) {
    for (const report of reports) {
      const link = document.createElement('a');
      link.href = report.file;
      link.textContent = report.title;
      if (report.file === here) link.setAttribute('aria-current', 'page');
      nav.append(link);
    }
  }

  // A label's lines (separated by <br>) each in a span, so each transition gets its own colour.
  function labelLines(label) {
    const text = label && label.querySelector('p');
    if (!text) return [];
    const lines = [];
    let current = null;
    for (const child of [...text.childNodes]) {
      if (child.nodeName.toLowerCase() === 'br') { current = null; continue; }
      if (!current) {
        current = document.createElement('span');
        current.className = 'label-line';
        text.insertBefore(current, child);
        lines.push(current);
      }
      current.append(child);
    }
    return lines;
  }

  function indexDrawing(svg, svgId) {
    const nodes = new Map();
    const pattern = new RegExp('^' + svgId + '-state-(.+)-\\\\d+$');
    for (const element of svg.querySelectorAll('g.node[id], g.statediagram-cluster[id]')) {
      const match = pattern.exec(element.id);
      if (match) nodes.set(match[1], [...(nodes.get(match[1]) || []), element]);
    }
    const edges = new Map();
    const edge = (n) => {
      if (!edges.has(n)) {
        const label = svg.querySelector('g.label[data-id="edge' + n + '"]');
        edges.set(n, {
          path: svg.querySelector('path[data-edge][data-id="edge' + n + '"]'),
          label: label && label.closest('g.edgeLabel'),
          lines: labelLines(label),
        });
      }
      return edges.get(n);
    };
    return { nodes, edge };
  }

  function colour(drawing, machine) {
    const byEdge = new Map();
    for (const line of machine.lines) {
      byEdge.set(line.edge, [...(byEdge.get(line.edge) || []), line]);
      const part = drawing.edge(line.edge).lines[line.line];
      if (part) part.classList.add(line.covered ? 'cov-covered' : 'cov-missing');
    }
    for (const [n, lines] of byEdge) {
      const taken = lines.filter((line) => line.covered).length;
      const state = taken === lines.length ? 'cov-covered' : taken === 0 ? 'cov-missing' : 'cov-partial';
      const { path } = drawing.edge(n);
      if (path) path.classList.add(state);
    }
  }

  // Mermaid writes a state's classDef style on its shape, inline and !important: only another
  // inline style outranks it, so a state on the path gets one, and the original back after.
  function shapesOf(element) {
    return element.classList.contains('statediagram-cluster')
      ? element.querySelectorAll(':scope > g > rect.outer, :scope > rect.inner')
      : element.querySelectorAll(':scope > rect, :scope > path, :scope > circle, :scope > g:not(.label) > *');
  }
  function emphasise(element) {
    element.classList.add('on-path');
    for (const shape of shapesOf(element)) {
      if (shape.dataset.style === undefined) shape.dataset.style = shape.getAttribute('style') || '';
      shape.style.setProperty('stroke', 'var(--path)', 'important');
      shape.style.setProperty('stroke-width', '4px', 'important');
    }
  }
  function restore(figure) {
    for (const shape of figure.querySelectorAll('[data-style]')) {
      shape.setAttribute('style', shape.dataset.style);
      delete shape.dataset.style;
    }
    for (const element of figure.querySelectorAll('.on-path')) element.classList.remove('on-path');
  }

  const drawings = [];
  function select(machineIndex, pathIndex) {
    const drawing = drawings[machineIndex];
    const figure = document.getElementById('machine-' + machineIndex + '-drawing');
    const status = document.getElementById('machine-' + machineIndex + '-selected');
    const buttons = document.querySelectorAll('button.path[data-machine="' + machineIndex + '"]');
    const wasOn = pathIndex !== null && buttons[pathIndex] && buttons[pathIndex].getAttribute('aria-pressed') === 'true';
    for (const button of buttons) button.setAttribute('aria-pressed', 'false');
    restore(figure);
    figure.classList.remove('showing-path');
    status.textContent = '';
    if (pathIndex === null || wasOn || !drawing) return;
    const path = data.machines[machineIndex].pathList[pathIndex];
    buttons[pathIndex].setAttribute('aria-pressed', 'true');
    figure.classList.add('showing-path');
    for (const node of path.nodes) for (const element of drawing.nodes.get(node) || []) emphasise(element);
    for (const [n, line] of path.lines) {
      const edge = drawing.edge(n);
      for (const element of [edge.path, edge.label, edge.lines[line]]) if (element) element.classList.add('on-path');
    }
    status.textContent = 'Showing ' + path.title + ': ' + path.nodes.length + ' states, ' + path.lines.length + ' transition lines.';
    figure.scrollIntoView({ block: 'nearest' });
  }
  document.addEventListener('click', (event) => {
    const button = event.target.closest && event.target.closest('button.path, button.zoom');
    if (!button) return;
    if (button.classList.contains('path')) return select(Number(button.dataset.machine), Number(button.dataset.path));
    const on = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(on));
    document.getElementById('machine-' + button.dataset.machine + '-drawing').classList.toggle('actual-size', on);
  });

  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default', maxTextSize: 500000 });
  for (const [index, machine] of data.machines.entries()) {
    const figure = document.getElementById('machine-' + index + '-drawing');
    try {
      const svgId = 'machine-' + index + '-svg';
      const { svg } = await mermaid.render(svgId, machine.source);
      const drawing = new DOMParser().parseFromString(svg, 'text/html').body.querySelector('svg');
      const [, , width, height] = (drawing.getAttribute('viewBox') || '').split(/\\s+/).map(Number);
      // Fitted to the page by default (CSS); 'Actual size' shows it at Mermaid's own size.
      if (width && height) {
        drawing.setAttribute('width', String(Math.ceil(width)));
        drawing.setAttribute('height', String(Math.ceil(height)));
        drawing.style.removeProperty('max-width');
      }
      figure.replaceChildren(document.adoptNode(drawing));
      drawings[index] = indexDrawing(drawing, svgId);
      colour(drawings[index], machine);
      figure.dataset.state = 'drawn';
    } catch (error) {
      figure.textContent = 'The diagram could not be drawn: ' + (error && error.message ? error.message : String(error));
      figure.dataset.state = 'failed';
    }
  }
  document.body.dataset.drawn = 'true';
})();
`;

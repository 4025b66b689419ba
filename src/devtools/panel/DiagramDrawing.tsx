import { useEffect, useRef } from 'react';
import styled, { createGlobalStyle } from 'styled-components';
import type { DrawnAt } from '../transition-keys.ts';
import { ACTIVE_CLASS } from './diagram.ts';
import { markTaken } from './overlay-dom.ts';
import { theme } from '../../ui/theme.ts';

// Puts mermaid's SVG on the page: parsed (never through innerHTML; it is
// mermaid's sanitised drawing of our machine definitions, no user text),
// labelled as an image, at its own size (scrolling) or fitted to the panel,
// the arrows the session took coloured (the overlay), and the first drawing
// of a machine scrolled to its current state.

type Props = {
  svg: string | null;
  label: string;
  fit: boolean;
  machineId: string;
  /** The overlay's arrows (empty without it). */
  taken: readonly DrawnAt[];
  dark: boolean;
};

export function DiagramDrawing({ svg, label, fit, machineId, taken, dark }: Props) {
  const figure = useRef<HTMLDivElement>(null);
  const centredFor = useRef<string | null>(null);

  useEffect(() => {
    const container = figure.current;
    if (!container) return;
    const drawing = svg ? new DOMParser().parseFromString(svg, 'text/html').body.querySelector('svg') : null;
    if (!drawing) {
      container.replaceChildren();
      return;
    }
    drawing.setAttribute('role', 'img');
    drawing.setAttribute('aria-label', label);
    const [, , width, height] = (drawing.getAttribute('viewBox') ?? '').split(/\s+/).map(Number);
    if (!fit && width && height) {
      drawing.setAttribute('width', String(Math.ceil(width)));
      drawing.setAttribute('height', String(Math.ceil(height)));
      drawing.style.maxWidth = 'none';
    }
    container.replaceChildren(document.adoptNode(drawing));
    markTaken(drawing, taken, dark);
    const current = drawing.querySelector(`.${ACTIVE_CLASS}`);
    if (current && centredFor.current !== machineId) {
      centredFor.current = machineId;
      current.scrollIntoView({ block: 'nearest', inline: 'center' });
    }
  }, [svg, label, fit, machineId, taken, dark]);

  return (
    <>
      <NoTransitions />
      {/* It scrolls, so it takes focus: keyboard users can scroll a big machine too. */}
      <Figure ref={figure} data-machine={machineId} tabIndex={0} />
    </>
  );
}

// Mermaid lays a drawing out by measuring it right after setting its geometry. The portal's
// reduced-motion rule gives every element a 0.01 ms transition (of 'all', the default property),
// so those reads return the previous geometry and the layout explodes. Drawings, and the scratch
// element mermaid measures them in (its id prefixed with 'd'), have no transitions at all.
const NoTransitions = createGlobalStyle`
  [id^='devtools-diagram-'],
  [id^='devtools-diagram-'] *,
  [id^='ddevtools-diagram-'],
  [id^='ddevtools-diagram-'] * {
    transition: none !important;
    animation: none !important;
  }
`;

const Figure = styled.div`
  max-height: 60vh;
  overflow: auto;
  padding: ${theme.space(2)};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  svg {
    display: block;
  }
`;

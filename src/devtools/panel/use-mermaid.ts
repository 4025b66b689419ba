import { useEffect, useState } from 'react';

// Renders Mermaid source to SVG markup in the browser, offline: the mermaid
// package is imported here, on first use, so it is a chunk of its own that is
// requested only when a diagram is opened.

export type MermaidResult = {
  svg: string | null;
  error: string | null;
  /** The source `svg` was drawn from: until a new source is drawn, the previous drawing stays. */
  drawn: string | null;
};

let renders = 0;

export function useMermaidSvg(source: string, dark: boolean): MermaidResult {
  const [result, setResult] = useState<{ svg: string | null; error: string | null; source: string | null }>({
    svg: null,
    error: null,
    source: null,
  });

  useEffect(() => {
    let current = true;
    void (async () => {
      try {
        const { default: mermaid } = await import('mermaid');
        // 'strict': labels are escaped and the SVG sanitised; no click handlers.
        mermaid.initialize({
          startOnLoad: false,
          securityLevel: 'strict',
          theme: dark ? 'dark' : 'default',
          // Mermaid's dark edge labels are light grey on mid grey; on the panel's surface they read.
          ...(dark ? { themeVariables: { edgeLabelBackground: '#161b26', textColor: '#eef1f8' } } : {}),
        });
        renders += 1;
        const { svg } = await mermaid.render(`devtools-diagram-${renders}`, source);
        if (current) setResult({ svg, error: null, source });
      } catch (error) {
        if (current)
          setResult({ svg: null, error: error instanceof Error ? error.message : String(error), source });
      }
    })();
    return () => {
      current = false;
    };
  }, [source, dark]);

  // Until the new source is drawn, the previous drawing stays (no flicker on each state change).
  return {
    svg: result.svg,
    error: result.source === source ? result.error : null,
    drawn: result.svg === null ? null : result.source,
  };
}

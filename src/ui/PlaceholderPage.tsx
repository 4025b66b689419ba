type Props = { backendUrl: string | null };

// Stands in for the portal until the views land; it shows which backend the
// build is configured for, so `npm start` visibly wires the app to the stack.
export function PlaceholderPage({ backendUrl }: Props) {
  return (
    <main
      style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}
    >
      <h1>DDEX Token Portal</h1>
      <p>The portal&apos;s screens are on their way. The local backend is running.</p>
      <p>
        Backend: <code>{backendUrl ?? 'not configured (set VITE_SUPABASE_URL)'}</code>
      </p>
    </main>
  );
}

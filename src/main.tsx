import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PlaceholderPage } from './ui/PlaceholderPage.tsx';

// Composition root. Later it builds the services from configuration and
// provides them to the root statechart; for now it mounts the placeholder.
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <PlaceholderPage backendUrl={import.meta.env.VITE_SUPABASE_URL ?? null} />
  </StrictMode>,
);

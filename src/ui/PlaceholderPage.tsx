import { useSelector } from '@xstate/react';
import type { Actor } from 'xstate';
import type { portalMachine } from '../machines/portal.machine.ts';

type Props = { backendUrl: string | null; portal: Actor<typeof portalMachine> };

// Stands in for the portal until the views land; it shows which backend the
// build is configured for and what the statecharts know, so `npm start`
// visibly wires the app to the stack.
export function PlaceholderPage({ backendUrl, portal }: Props) {
  const user = useSelector(portal, (snapshot) => snapshot.context.user?.email ?? null);
  const wallet = useSelector(portal, (snapshot) => snapshot.context.walletAddress);
  return (
    <main
      style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}
    >
      <h1>DDEX Token Portal</h1>
      <p>The portal&apos;s screens are on their way. The local backend is running.</p>
      <p>
        Backend: <code>{backendUrl ?? 'not configured (set VITE_SUPABASE_URL)'}</code>
      </p>
      <p>
        Signed in: <code>{user ?? 'no'}</code> · Wallet: <code>{wallet ?? 'not connected'}</code>
      </p>
    </main>
  );
}

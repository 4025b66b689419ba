import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  define: {
    // Vite turns `process.env` into `{}` in browser code. The Tatum SDK reads its REST base from
    // process.env.TATUM_URL (there is no option for it), which the Tatum service sets on
    // globalThis.process before each call; this keeps that lookup alive and is `{}` otherwise.
    'process.env': '(globalThis.process?.env ?? {})',
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});

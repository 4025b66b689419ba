import type { TestProject } from 'vitest/node';
import { loadProject, type LoadedFile } from '../../../stack/postgres/load-project.ts';
import { startPostgres } from '../../../stack/postgres/server.ts';

// Starts one throwaway PostgreSQL 17 for the postgres layer, loads the project into it as a hosted
// project gets it (stack/postgres/load-project.ts: the hosted baseline, supabase/migrations, the
// seed) and hands the test files where to connect. A migration that fails to apply fails the
// run here, with its file, line and the server's message. The teardown stops the server and
// deletes its folder.
export default async function setup(project: TestProject) {
  const server = await startPostgres();
  try {
    const loaded = await loadProject(server);
    project.provide('postgres', {
      host: server.host,
      port: server.port,
      database: server.database,
      password: server.password,
      superuser: server.superuser,
      version: server.version,
      loaded,
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return () => server.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: {
      host: string;
      port: number;
      database: string;
      /** Every login role's password on this server. */
      password: string;
      superuser: string;
      version: string;
      loaded: LoadedFile[];
    };
  }
}

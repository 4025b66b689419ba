import type { Database } from './database.types.ts';

export type TransactionRow = Database['public']['Tables']['transactions']['Row'];

import { describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, signedInUser, type TestUser } from '../support/stack/users.ts';

// The transactions calls (docs/product.md#calls): the owner lists the 20 newest; only server functions
// write rows, and one transfer is recorded once per user.
const stack = inject('gateway');
const service = serviceClient(stack);

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

async function record(user: TestUser, count: number) {
  const base = Date.now() - count * 1000;
  const rows = Array.from({ length: count }, (_, i) => ({
    user_id: user.id,
    type: 'token_received',
    status: 'confirmed',
    amount: `${i + 1}.5`,
    token_symbol: 'DDEX',
    tx_hash: hash(i + 1),
    created_at: new Date(base + i * 1000).toISOString(),
  }));
  const { error } = await service.from('transactions').insert(rows);
  if (error) throw new Error(`could not record transactions: ${error.message}`);
}

const list = (user: TestUser) =>
  user.client
    .from('transactions')
    .select('*')
    .eq('user_id', user.id)
    .order('created_at', { ascending: false })
    .limit(20);

describe('transactions', () => {
  it('lists the owner’s 20 newest, newest first, with amounts kept exact', async () => {
    const user = await signedInUser(stack, 'history');
    await record(user, 21);
    const { data, error } = await list(user);
    expect(error).toBeNull();
    expect(data?.map((t) => t.tx_hash)).toEqual(Array.from({ length: 20 }, (_, i) => hash(21 - i)));
    expect(data?.[0]).toMatchObject({ amount: '21.5', token_symbol: 'DDEX', status: 'confirmed' });
  });

  it('records one transfer for one user only once: a transaction’s own value, or each of its logs', async () => {
    const user = await signedInUser(stack, 'idempotent');
    const row = {
      user_id: user.id,
      type: 'token_received',
      status: 'confirmed',
      amount: '1',
      tx_hash: hash(7),
    };
    // Without a log (the transaction's ETH value or fee): one row per transaction and type.
    expect((await service.from('transactions').insert(row)).error).toBeNull();
    const again = await service.from('transactions').insert(row);
    expect(again.error?.code).toBe('23505');
    const upserted = await service
      .from('transactions')
      .upsert(row, { onConflict: 'user_id,tx_hash,type,log_index', ignoreDuplicates: true });
    expect(upserted.error).toBeNull();
    // Each log of the transaction is a transfer of its own, recorded once.
    for (const logIndex of [0, 1]) {
      expect((await service.from('transactions').insert({ ...row, log_index: logIndex })).error).toBeNull();
    }
    expect((await service.from('transactions').insert({ ...row, log_index: 1 })).error?.code).toBe('23505');
    expect((await service.from('transactions').insert({ ...row, log_index: -1 })).error?.message).toContain(
      'transactions_log_index_is_position',
    );
    expect((await list(user)).data?.map((t) => t.log_index).sort()).toEqual([0, 1, null]);
  });

  it('refuses amounts that are not decimal numbers', async () => {
    const user = await signedInUser(stack, 'amount');
    const { error } = await service.from('transactions').insert({
      user_id: user.id,
      type: 'token_received',
      status: 'confirmed',
      amount: '1e3',
      tx_hash: hash(9),
    });
    expect(error?.message).toContain('transactions_amount_is_decimal');
  });

  it('lets clients neither write history nor see anyone else’s', async () => {
    const owner = await signedInUser(stack, 'owner');
    const other = await signedInUser(stack, 'other');
    await record(owner, 1);
    const forged = { user_id: owner.id, type: 'token_received', status: 'confirmed', tx_hash: hash(99) };
    expect((await owner.client.from('transactions').insert(forged)).error?.code).toBe('42501');
    expect((await anonClient(stack).from('transactions').insert(forged)).error).not.toBeNull();

    const edited = await owner.client
      .from('transactions')
      .update({ amount: '1000' })
      .eq('user_id', owner.id)
      .select();
    expect(edited.data ?? []).toEqual([]);
    const removed = await owner.client.from('transactions').delete().eq('user_id', owner.id).select();
    expect(removed.data ?? []).toEqual([]);

    for (const client of [other.client, anonClient(stack)]) {
      const seen = await client.from('transactions').select('*').eq('user_id', owner.id);
      expect(seen.data ?? []).toEqual([]);
    }
    const after = await list(owner);
    expect(after.data).toHaveLength(1);
    expect(after.data?.[0]?.amount).toBe('1.5');
  });

  it('lets only the server functions call record_transfer, which writes the row and its notice once', async () => {
    const user = await signedInUser(stack, 'rpc');
    const args = {
      p_user_id: user.id,
      p_tx_hash: hash(42),
      p_type: 'token_received',
      p_status: 'confirmed',
      p_amount: '3',
      p_token_symbol: 'DDEX',
      p_title: 'DDEX Received',
      p_message: 'You received 3 DDEX.',
    };
    for (const client of [user.client, anonClient(stack)]) {
      const refused = await client.rpc('record_transfer', args);
      expect(refused.error).not.toBeNull();
    }
    expect((await list(user)).data).toEqual([]);

    expect((await service.rpc('record_transfer', args)).data).toBe(true);
    expect((await service.rpc('record_transfer', args)).data).toBe(false);
    expect((await list(user)).data).toHaveLength(1);
    const notices = await user.client.from('user_notifications').select('title').eq('user_id', user.id);
    expect(notices.data).toEqual([{ title: 'DDEX Received' }]);
  });

  it('records each log of a transaction once, and meets a row recorded without its log', async () => {
    const user = await signedInUser(stack, 'rpc-logs');
    const transfer = (txHash: string, logIndex?: number) => ({
      p_user_id: user.id,
      p_tx_hash: txHash,
      p_type: 'token_received',
      ...(logIndex === undefined ? {} : { p_log_index: logIndex }),
      p_status: 'confirmed',
      p_amount: '3',
      p_token_symbol: 'DDEX',
      p_title: 'DDEX Received',
      p_message: 'You received 3 DDEX.',
    });
    const recorded = async (args: ReturnType<typeof transfer>) => {
      const { data, error } = await service.rpc('record_transfer', args);
      expect(error).toBeNull();
      return data;
    };
    for (const client of [user.client, anonClient(stack)]) {
      expect((await client.rpc('record_transfer', transfer(hash(50), 0))).error).not.toBeNull();
    }

    // Two transfers of one transaction: two rows; a repeat of either, nothing.
    expect(await recorded(transfer(hash(50), 0))).toBe(true);
    expect(await recorded(transfer(hash(50), 1))).toBe(true);
    expect(await recorded(transfer(hash(50), 1))).toBe(false);
    // A delivery naming no log meets the rows there are: it records nothing.
    expect(await recorded(transfer(hash(50)))).toBe(false);
    // A row recorded without its log takes the log of the first writer that names one.
    expect(await recorded(transfer(hash(51)))).toBe(true);
    expect(await recorded(transfer(hash(51), 4))).toBe(false);
    expect(await recorded(transfer(hash(51), 5))).toBe(true);

    const rows = (await list(user)).data ?? [];
    expect(rows.map((row) => [row.tx_hash, row.log_index]).sort()).toEqual([
      [hash(50), 0],
      [hash(50), 1],
      [hash(51), 4],
      [hash(51), 5],
    ]);
    const notices = await user.client.from('user_notifications').select('title').eq('user_id', user.id);
    expect(notices.data).toHaveLength(4);
  });
});

import { describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, signedInUser, type TestUser } from '../support/stack/users.ts';

// The user_notifications calls (docs/product.md#calls): list newest first (20), mark one read,
// mark a set read, clear all. Only the server inserts notifications.
const stack = inject('gateway');
const service = serviceClient(stack);

async function notify(user: TestUser, count: number) {
  // Distinct, increasing created_at values make "newest first" observable.
  const base = Date.now() - count * 1000;
  const rows = Array.from({ length: count }, (_, i) => ({
    user_id: user.id,
    title: `Notice ${i + 1}`,
    message: `Message ${i + 1}`,
    created_at: new Date(base + i * 1000).toISOString(),
  }));
  const { data, error } = await service.from('user_notifications').insert(rows).select();
  if (error || !data) throw new Error(`could not insert notifications: ${error?.message}`);
  return data;
}

const list = (user: TestUser) =>
  user.client
    .from('user_notifications')
    .select('*')
    .eq('user_id', user.id)
    .order('created_at', { ascending: false })
    .limit(20);

describe('user_notifications', () => {
  it('lists the 20 newest of the owner, newest first', async () => {
    const user = await signedInUser(stack, 'list');
    await notify(user, 22);
    const { data, error } = await list(user);
    expect(error).toBeNull();
    expect(data?.map((n) => n.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Notice ${22 - i}`));
    expect(data?.every((n) => n.is_read === false && n.read_at === null)).toBe(true);
  });

  it('marks one notification read, then a set of them', async () => {
    const user = await signedInUser(stack, 'mark');
    const [first, second, third] = await notify(user, 3);
    const readAt = new Date().toISOString();
    const one = await user.client
      .from('user_notifications')
      .update({ is_read: true, read_at: readAt })
      .eq('id', first?.id ?? '');
    expect(one.error).toBeNull();
    const set = await user.client
      .from('user_notifications')
      .update({ is_read: true, read_at: readAt })
      .in('id', [second?.id ?? '', third?.id ?? '']);
    expect(set.error).toBeNull();
    const { data } = await list(user);
    expect(data?.map((n) => n.is_read)).toEqual([true, true, true]);
    expect(data?.every((n) => n.read_at !== null)).toBe(true);
  });

  it('clears all of the owner’s notifications and no one else’s', async () => {
    const user = await signedInUser(stack, 'clear');
    const bystander = await signedInUser(stack, 'bystander');
    await notify(user, 4);
    await notify(bystander, 2);
    const cleared = await user.client.from('user_notifications').delete().eq('user_id', user.id);
    expect(cleared.error).toBeNull();
    expect((await list(user)).data).toEqual([]);
    expect((await list(bystander)).data).toHaveLength(2);
  });

  it('refuses a client change to anything but the read state', async () => {
    const user = await signedInUser(stack, 'retitle');
    const [row] = await notify(user, 1);
    const { error } = await user.client
      .from('user_notifications')
      .update({ title: 'Forged', message: 'Forged' })
      .eq('id', row?.id ?? '');
    expect(error?.code).toBe('42501');
    expect(error?.message).toContain('Only is_read and read_at');
    expect((await list(user)).data?.[0]).toMatchObject({ title: row?.title, message: row?.message });
  });

  it('refuses inserts by users and by anon', async () => {
    const user = await signedInUser(stack, 'forger');
    const fromUser = await user.client
      .from('user_notifications')
      .insert({ user_id: user.id, title: 'Self-made', message: 'x' });
    expect(fromUser.error?.code).toBe('42501');
    const fromAnon = await anonClient(stack)
      .from('user_notifications')
      .insert({ user_id: user.id, title: 'Anon-made', message: 'x' });
    expect(fromAnon.error).not.toBeNull();
    expect((await list(user)).data).toEqual([]);
  });

  it('keeps another user and anon from reading, marking or deleting the owner’s notifications', async () => {
    const owner = await signedInUser(stack, 'owner');
    const other = await signedInUser(stack, 'other');
    const [row] = await notify(owner, 1);
    const id = row?.id ?? '';

    for (const client of [other.client, anonClient(stack)]) {
      const read = await client.from('user_notifications').select('*').eq('user_id', owner.id);
      expect(read.data ?? []).toEqual([]);
      const marked = await client.from('user_notifications').update({ is_read: true }).eq('id', id).select();
      expect(marked.data ?? []).toEqual([]);
      const deleted = await client.from('user_notifications').delete().eq('id', id).select();
      expect(deleted.data ?? []).toEqual([]);
    }
    const after = await service.from('user_notifications').select('*').eq('id', id).single();
    expect(after.data).toEqual(row);
  });
});

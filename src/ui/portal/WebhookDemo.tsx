import styled from 'styled-components';
import { webhookCopy } from '../../copy/index.ts';
import { Button } from '../common/Button.tsx';
import { useChild, useChildSelector } from '../portal-context.tsx';
import { theme } from '../theme.ts';

// The Tatum webhook demo (docs/product.md#webhook-demo). One operation at a
// time: the buttons are disabled until the webhooks machine is idle again.
export function WebhookDemo() {
  const webhooks = useChild('webhooks');
  const busy = useChildSelector('webhooks', (snapshot) => !snapshot.matches('idle'));

  return (
    <section aria-labelledby="webhooks-title" aria-busy={busy}>
      <Title id="webhooks-title">{webhookCopy.section}</Title>
      <Row>
        <Button
          type="button"
          $variant="secondary"
          disabled={busy}
          onClick={() => webhooks.send({ type: 'webhooks.create' })}
        >
          {webhookCopy.create}
        </Button>
        <Button
          type="button"
          $variant="secondary"
          disabled={busy}
          onClick={() => webhooks.send({ type: 'webhooks.list' })}
        >
          {webhookCopy.list}
        </Button>
        <Button
          type="button"
          $variant="secondary"
          disabled={busy}
          onClick={() => webhooks.send({ type: 'webhooks.deleteFirst' })}
        >
          {webhookCopy.deleteFirst}
        </Button>
      </Row>
    </section>
  );
}

const Title = styled.h3`
  margin: 0 0 ${theme.space(2)};
  font-size: 1rem;
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(2)};
  & > button {
    flex: 1 1 auto;
    white-space: nowrap;
  }
`;

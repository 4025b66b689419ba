import styled from 'styled-components';
import { appCopy } from '../../../copy/index.ts';
import { dialogCopy } from '../../../copy/dialogs.ts';
import { Dialog } from '../../common/Dialog.tsx';
import { Tag } from '../parts.tsx';
import { useDialog } from '../useDialog.ts';
import { UnderConstruction } from './UnderConstruction.tsx';
import { theme } from '../../theme.ts';

/**
 * Security settings (docs/product.md#api-keys-and-security): under construction; two-factor
 * authentication is coming.
 */
export function SecurityDialog() {
  const { open, close } = useDialog('security');
  return (
    <Dialog open={open} onClose={close} title={dialogCopy.security.title}>
      <UnderConstruction>{dialogCopy.security.body}</UnderConstruction>
      <Setting>
        <div>
          <Name>{dialogCopy.security.twoFactor}</Name>
          <Hint>{dialogCopy.security.twoFactorHint}</Hint>
        </div>
        <Tag>{appCopy.menu.soon}</Tag>
      </Setting>
    </Dialog>
  );
}

const Setting = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(3)};
  margin-top: ${theme.space(4)};
  padding: ${theme.space(3)};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
`;

const Name = styled.h3`
  margin: 0;
  font-size: 1rem;
`;

const Hint = styled.p`
  margin: 0;
  font-size: 0.85rem;
  color: ${theme.color.textMuted};
`;

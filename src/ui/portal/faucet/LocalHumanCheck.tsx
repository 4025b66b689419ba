import styled from 'styled-components';
import { localHumanCheckCopy } from '../../../copy/faucet-local.ts';
import type { HumanCheckProps } from './human-check-props.ts';
import { theme } from '../../theme.ts';

// The local build's stand-in for hCaptcha's widget: a box to tick, clearly labelled as the stand-in,
// which yields hCaptcha's documented test response token. The local stack's siteverify emulator
// passes that token and nothing else (docs/local-stack.md), as hCaptcha's own test keys do. Only a
// build for the local chain (31337) holds this file (Faucet.tsx reads the chain id by name).

/** hCaptcha's test response token (https://docs.hcaptcha.com/#integration-testing-test-keys). */
export const HCAPTCHA_TEST_RESPONSE = '10000000-aaaa-bbbb-cccc-000000000001';

export default function LocalHumanCheck({ faucet }: HumanCheckProps) {
  return (
    <Box>
      <label>
        <input
          type="checkbox"
          onChange={(event) => {
            if (event.currentTarget.checked)
              faucet.send({ type: 'faucet.humanChecked', token: HCAPTCHA_TEST_RESPONSE });
          }}
        />{' '}
        {localHumanCheckCopy.label}
      </label>
      <Note>{localHumanCheckCopy.note}</Note>
    </Box>
  );
}

const Box = styled.div`
  display: grid;
  gap: ${theme.space(1)};
  padding: ${theme.space(2)} ${theme.space(3)};
  border: 1px dashed ${theme.color.border};
  border-radius: ${theme.radius.sm};
  label {
    font-weight: 600;
  }
`;

const Note = styled.small`
  color: ${theme.color.textMuted};
`;

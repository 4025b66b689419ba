import styled from 'styled-components';
import { footerCopy } from '../../copy/index.ts';
import { useSettings } from '../settings-context.tsx';
import { theme } from '../theme.ts';

// The footer (docs/product.md#footer): the demonstration notice, the contact address
// and the product site, both from the configuration.
export function Footer() {
  const { contactEmail, productSite } = useSettings();
  return (
    <Bar>
      <Inner>
        <Notice>{footerCopy.demo}</Notice>
        <Links>
          <span>
            {footerCopy.contact} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
          </span>
          <a href={productSite}>{footerCopy.productSite}</a>
        </Links>
      </Inner>
    </Bar>
  );
}

const Bar = styled.footer`
  border-top: 1px solid ${theme.color.border};
  background: ${theme.color.surface};
  color: ${theme.color.textMuted};
  font-size: 0.9rem;
`;

const Inner = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${theme.space(2)} ${theme.space(6)};
  width: min(960px, 100%);
  margin: 0 auto;
  padding: ${theme.space(5)} ${theme.space(4)};
`;

const Notice = styled.p`
  margin: 0;
`;

const Links = styled.p`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space(1)} ${theme.space(5)};
  margin: 0;
  overflow-wrap: anywhere;
`;

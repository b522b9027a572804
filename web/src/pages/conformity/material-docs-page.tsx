import { ConformityPage } from './conformity-page';

/** '/material-docs': 'Conformidades - MIGO' (spec §2), the same shape as the HES screen. */
export default function MaterialDocsPage() {
  return <ConformityPage kind="MATERIAL_DOCUMENT" />;
}

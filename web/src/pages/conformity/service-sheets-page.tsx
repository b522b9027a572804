import { ConformityPage } from './conformity-page';

/** '/service-sheets': 'Conformidades - HES' (spec §2). */
export default function ServiceSheetsPage() {
  return <ConformityPage kind="SERVICE_SHEET" />;
}

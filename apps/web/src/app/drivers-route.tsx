import DriversPage from '../features/drivers/drivers-page.tsx';
import { QualificationFile } from '../features/compliance/qualification-file.tsx';
import { QualificationZipButton } from '../features/compliance/qualification-zip-button.tsx';

// All drivers (`.../all-drivers`, `.../driver-add`) composed here, since a feature never imports another
// (docs/style.md §10): the drivers feature's list and detail with the compliance feature's qualification
// file as a tab of the detail and every driver's file as one ZIP (issue 71).
export default function DriversRoute() {
  return <DriversPage qualification={QualificationFile} listActions={QualificationZipButton} />;
}

import { AssetsListPage } from '../features/assets/assets-list-page.tsx';
import { AssetCompliance } from '../features/compliance/asset-compliance.tsx';

// Vehicles (`.../vehicles`, `.../vehicle-add`) composed here, since a feature never imports another
// (docs/style.md §10): the assets feature's list and detail with the compliance feature's papers (issue 71).
export default function VehiclesRoute() {
  return <AssetsListPage type="VEHICLE" compliance={AssetCompliance} />;
}

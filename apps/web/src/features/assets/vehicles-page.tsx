import { AssetsListPage } from './assets-list-page.tsx';

/** `.../vehicles` and `.../vehicle-add` (opens the add form), spec section 2. */
export default function VehiclesPage() {
  return <AssetsListPage type="VEHICLE" />;
}

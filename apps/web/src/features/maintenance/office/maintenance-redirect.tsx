import { Navigate } from 'react-router';
import { useCan } from '../../../lib/registry-api.ts';

/** `/maintenance` opens the first screen the user may use: open defects, else work orders, else what is due. */
export default function MaintenanceRedirect() {
  const defects = useCan('DVIR_LIST');
  const orders = useCan('WORK_ORDER_LIST');
  return <Navigate to={defects ? '/maintenance/defects' : orders ? '/maintenance/work-orders' : '/maintenance/due'} replace />;
}

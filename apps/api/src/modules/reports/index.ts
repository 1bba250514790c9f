// The reports module's public file: other modules import from here only (imports inside the module stay direct).
export { TripsStops } from './trips-stops.service.ts';
export { exportReport, sheetCsv, sheetPdf, type ExportFile, type Sheet } from './reports-export.service.ts';
export { reportContext } from './reports.service.ts';
export { nextRunAfter, periodOf } from './report-schedule.ts';
export { tripsStopsFollower } from './trips-stops.follower.ts';

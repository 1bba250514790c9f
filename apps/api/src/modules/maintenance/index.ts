// The maintenance module's public file (issue 31, decision 0159): other modules and jobs import from here only.
export {
  countOpenDefects,
  createEngineFaultDefect,
  createInspectionItemDefect,
  defectsOfComplianceItems,
  getDefect,
  openSafetyDefectsOf,
  type EngineFaultDefect,
  type InspectionItemDefect,
} from './defects.service.ts';
export { defectInReach, dvirInReach } from './dvir-access.ts';
export { countInspectionsDue } from './inspections-due.service.ts';
export { maintenanceDueNow } from './maintenance-due.service.ts';
export { drivenWithSafetyDefectNotices, orgWording, serviceDueNotice } from './maintenance-notices.ts';
// The PDF drawing helpers and the zoned time text, shared with the reports' exports (decision 0163).
export { contentWidth, fields, pdfBuffer, section, table, type Column } from './maintenance-pdf.ts';
export { timeIn } from './maintenance-export.service.ts';

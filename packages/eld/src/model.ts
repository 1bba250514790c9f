// The ELD output file (49 CFR 395 Subpart B Appendix A 4.8.2) as plain data: what writeEldFile takes
// and parseEldFile gives back. Every date and time is already in the driver's home-terminal time, as
// the file holds it (Appendix A 4.4.3, 7.8, 7.40): the package does no zone arithmetic, so a file
// parses back into exactly the model it was written from. `homeTerminalTime` (local-time.ts) turns an
// instant into this form for callers that hold UTC instants.
//
// Numbers are the Appendix's own codes (event type/code Table 6, record status 7.23, record origin
// 7.22), the same numbers `hos_events` stores, so database rows map field by field.

/** Home-terminal local date and time, `YYYY-MM-DDTHH:MM:SS`, no offset. */
export type LocalDateTime = string;
/** Home-terminal local date, `YYYY-MM-DD`. */
export type LocalDate = string;

/** 7.23: 1 active, 2 inactive-changed, 3 inactive-change requested, 4 inactive-change rejected. */
export type EldRecordStatus = 1 | 2 | 3 | 4;
/** 7.22: 1 automatic, 2 driver, 3 another authenticated user (carrier), 4 assumed from unidentified driver. */
export type EldRecordOrigin = 1 | 2 | 3 | 4;

/**
 * Latitude/longitude of a record (7.31, 7.33; 4.6.1.4):
 * - `fix`: a valid position, written with 2 decimals, or 1 decimal when `reduced` (personal use, 4.7.3);
 * - `none`: no valid fix in the last 5 miles of driving, written `X`;
 * - `manual`: the driver typed the location, written `M`;
 * - `malfunction`: a positioning compliance malfunction is active, written `E`.
 */
export type EldPosition =
  | { readonly kind: 'fix'; readonly latitude: number; readonly longitude: number; readonly reduced: boolean }
  | { readonly kind: 'none' }
  | { readonly kind: 'manual' }
  | { readonly kind: 'malfunction' };

export interface EldDriverIdentity {
  readonly lastName: string;
  readonly firstName: string;
  /** ELD username (7.18): never the licence number. */
  readonly username: string;
  /** Two-letter issuing state or province (7.10). */
  readonly licenseState: string;
  readonly licenseNumber: string;
}

export interface EldCoDriver {
  readonly lastName: string;
  readonly firstName: string;
  readonly username: string;
}

/** The seven lines of the ELD File Header Segment (4.8.2.1.1). */
export interface EldHeader {
  /** Line 1. */
  readonly driver: EldDriverIdentity;
  /** Line 2; null writes the three fields blank. */
  readonly coDriver: EldCoDriver | null;
  /** Line 3: the CMV in use when the file is made. `trailerNumbers` are written space-separated (7.42, ≤ 32 characters). */
  readonly cmv: { readonly powerUnitNumber: string; readonly vin: string; readonly trailerNumbers: readonly string[] };
  /** Line 4. */
  readonly carrier: { readonly usdotNumber: string; readonly name: string };
  /** Line 4: 7 (60 h / 7 days) or 8 (70 h / 8 days). */
  readonly multidayBasis: 7 | 8;
  /** Line 4: the carrier's 24-hour period starting time in home-terminal time, `HH:MM:SS` (7.1). */
  readonly periodStartTime: string;
  /** Line 4: hours between UTC and home-terminal time, sign omitted (7.41: 04-11 in the US). */
  readonly timeZoneOffsetHours: number;
  /** Line 5 (7.39, ≤ 40 characters; several documents are one string). */
  readonly shippingDocumentNumber: string;
  /** Line 5: exempt driver configuration, written `E` or `0` (7.26). */
  readonly exempt: boolean;
  /** Line 6: when the file is made, where the CMV is and its odometer and engine hours. Its date also names the file. */
  readonly current: {
    readonly at: LocalDateTime;
    readonly position: EldPosition;
    readonly totalVehicleMiles: number | null;
    readonly totalEngineHours: number | null;
  };
  /** Line 7: registration id (4 characters, 7.17), ELD identifier (6, 7.15), authentication value (7.14). */
  readonly eld: { readonly registrationId: string; readonly identifier: string; readonly authenticationValue: string };
  /** Line 7: the officer's key phrase or code (7.38, ≤ 60 characters). */
  readonly outputFileComment: string;
}

/** One row of the User List (4.8.2.1.2); its order number is its position in the list, from 1. */
export interface EldUser {
  /** `D` driver (the unidentified driver profile too), `S` motor carrier support personnel. */
  readonly accountType: 'D' | 'S';
  readonly lastName: string;
  readonly firstName: string;
}

/** One row of the CMV List (4.8.2.1.3); its order number is its position in the list, from 1. */
export interface EldCmv {
  readonly powerUnitNumber: string;
  /** 17 characters, `-` + 17 when not read from the ECM, or blank (7.4). */
  readonly vin: string;
}

/** A row of the ELD Event Annotations or Comments segment (4.8.2.1.5), attached to its event. */
export interface EldAnnotation {
  /** ELD username of the record originator. */
  readonly username: string;
  /** Comment or annotation (7.6, ≤ 60 characters), may be empty when only a location was typed. */
  readonly comment: string;
  /** Driver's location description typed by the driver (7.12, ≤ 60 characters), empty when none. */
  readonly locationDescription: string;
}

/** Fields shared by the driver's event list (4.8.2.1.4) and the unidentified driver records (4.8.2.1.10). */
export interface EldRecordedEvent {
  /** Event sequence id, 0-0xFFFF (7.24), written in hexadecimal. */
  readonly sequenceId: number;
  readonly recordStatus: EldRecordStatus;
  readonly recordOrigin: EldRecordOrigin;
  /** 1 duty status, 2 intermediate log, 3 special driving condition (PC/YM). */
  readonly type: 1 | 2 | 3;
  /** Table 6: type 1 → 1-4 (OFF, SB, D, ON); type 2 → 1-2; type 3 → 0-2. */
  readonly code: number;
  readonly at: LocalDateTime;
  /** Miles since the engine's last power-on, 0-9999 (7.43); null when an edit cannot know it. */
  readonly accumulatedVehicleMiles: number | null;
  /** Engine hours since power-on, 0.1 h (7.19); null when an edit cannot know it. */
  readonly elapsedEngineHours: number | null;
  readonly position: EldPosition;
  /** Whole miles since the last valid coordinates, 0-6; more is written 6 (7.9). */
  readonly distanceSinceLastValidCoordinates: number;
  /** Position in the CMV list, from 1; null when no CMV. */
  readonly cmvOrder: number | null;
  /** Malfunction indicator status of the ELD when recorded (7.35). */
  readonly malfunction: boolean;
}

/** A driver's duty-status, intermediate-log or special-condition event (types 1-3). */
export interface EldEvent extends EldRecordedEvent {
  /** Position in the user list of the record originator, from 1; null when the ELD recorded it. */
  readonly userOrder: number | null;
  /** Data diagnostic event indicator status for the driver (7.7). */
  readonly dataDiagnostic: boolean;
  /** Present when the event has a comment or a typed location: it is then listed in 4.8.2.1.5 too. */
  readonly annotation: EldAnnotation | null;
}

/** A record of the unidentified driver profile (4.8.2.1.10). */
export type EldUnidentifiedEvent = EldRecordedEvent;

/** Driver's certification or re-certification of a day (type 4, 4.8.2.1.6). */
export interface EldCertification {
  readonly sequenceId: number;
  /** n-th certification of that day, 1-9 (9 for the ninth and every later one). */
  readonly code: number;
  readonly at: LocalDateTime;
  /** The log day certified. */
  readonly certifiedDate: LocalDate;
  readonly cmvOrder: number | null;
}

/** Malfunction or data diagnostic event (type 7, 4.8.2.1.7). */
export interface EldMalfunction {
  readonly sequenceId: number;
  /** 1 malfunction logged, 2 malfunction cleared, 3 diagnostic logged, 4 diagnostic cleared. */
  readonly code: 1 | 2 | 3 | 4;
  /** Table 4: P, E, T, L, R, S, O for malfunctions; 1-6 for data diagnostics. */
  readonly diagnosticCode: string;
  readonly at: LocalDateTime;
  readonly totalVehicleMiles: number | null;
  readonly totalEngineHours: number | null;
  readonly cmvOrder: number | null;
}

/** Login or logout (type 5, 4.8.2.1.8). */
export interface EldLoginLogout {
  readonly sequenceId: number;
  /** 1 login, 2 logout. */
  readonly code: 1 | 2;
  readonly username: string;
  readonly at: LocalDateTime;
  readonly totalVehicleMiles: number | null;
  readonly totalEngineHours: number | null;
}

/** CMV engine power-up or shut-down (type 6, 4.8.2.1.9). */
export interface EldEnginePower {
  readonly sequenceId: number;
  /** 1 power-up, 2 power-up reduced precision, 3 shut-down, 4 shut-down reduced precision. */
  readonly code: 1 | 2 | 3 | 4;
  readonly at: LocalDateTime;
  readonly totalVehicleMiles: number | null;
  readonly totalEngineHours: number | null;
  readonly position: EldPosition;
  readonly powerUnitNumber: string;
  readonly vin: string;
  readonly trailerNumbers: readonly string[];
  readonly shippingDocumentNumber: string;
}

/**
 * Everything an ELD output file holds. Lists may come in any order: the writer puts each segment
 * most recent first as 4.8.2.1 requires (ties: higher sequence id first), except the user and CMV
 * lists, whose order numbers the events refer to — give those most recent first yourself.
 */
export interface EldFile {
  readonly header: EldHeader;
  /** Drivers, co-drivers and support personnel of the period, the unidentified driver profile included. */
  readonly users: readonly EldUser[];
  readonly cmvs: readonly EldCmv[];
  /** Types 1-3 of the inspected driver, every record status and origin. */
  readonly events: readonly EldEvent[];
  readonly certifications: readonly EldCertification[];
  readonly malfunctions: readonly EldMalfunction[];
  readonly loginLogouts: readonly EldLoginLogout[];
  readonly enginePower: readonly EldEnginePower[];
  readonly unidentifiedEvents: readonly EldUnidentifiedEvent[];
}

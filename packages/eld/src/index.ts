export type * from './model.ts';
export { EldInputError, EldParseError } from './errors.ts';
export { characterValue, checksum, eventDataCheckValue, fileDataCheckValue, lineDataCheckValue } from './check-values.ts';
export { eldFileName, DEFAULT_FILE_NAME_SUFFIX, type FileNameInput } from './file-name.ts';
export { writeEldFile, type WriteEldFileOptions, type EldFileOutput } from './writer.ts';
export { parseEldFile, type ParseEldFileOptions } from './parser.ts';
export { homeTerminalTime, utcOffsetHours } from './local-time.ts';
export { DEFAULT_UNIDENTIFIED_USERNAME, SEGMENT_TITLES } from './segments.ts';
export { accumulatedValueProblems } from './consistency.ts';

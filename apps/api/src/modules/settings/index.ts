// The settings module's public file: other modules import from here only.
export { terminalOf } from './terminals.repository.ts';

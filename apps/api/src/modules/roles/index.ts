// The roles module's public file: other modules import from here only. No other module uses roles today.
export {};

// The registry-csv module's public file: other modules import from here only. No other module uses registry-csv today.
export {};

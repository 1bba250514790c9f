// The data-retention module's public file: other modules import from here only. No other module uses data-retention today.
export {};

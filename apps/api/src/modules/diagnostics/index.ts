// The diagnostics module's public file: other modules import from here only. No other module uses diagnostics today.
export {};

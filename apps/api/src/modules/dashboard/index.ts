// The dashboard module's public file: other modules import from here only. No other module uses dashboard today.
export {};

// The health module's public file: other modules import from here only. No other module uses health today.
export {};

// The device-models module's public file: other modules import from here only. No other module uses device-models today.
export {};

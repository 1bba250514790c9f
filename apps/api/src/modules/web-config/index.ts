// The web-config module's public file: other modules import from here only. No other module uses web-config today.
export {};

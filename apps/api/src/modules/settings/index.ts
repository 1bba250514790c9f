// The settings module's public file: other modules import from here only. No other module uses settings today.
export {};

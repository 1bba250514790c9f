-- Reserved for issue 30 (traccar_devices); filled by the change that needs it.
SELECT 1;

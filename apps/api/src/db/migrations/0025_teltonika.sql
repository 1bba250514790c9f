-- Reserved for issue 30 (teltonika); filled by the change that needs it.
SELECT 1;

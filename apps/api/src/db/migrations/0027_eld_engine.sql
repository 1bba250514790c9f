-- Reserved for issue 30 (eld_engine); filled by the change that needs it.
SELECT 1;

-- Reserved for issue 28; filled by the change that needs it.
SELECT 1;

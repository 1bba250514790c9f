-- Issue 34 (decision 0169): a sign-in account's e-mail change moves the drivers list version from
-- the API (users.service updateProfile, list-index/list-versions.ts), in the same transaction, on
-- every database. On Citus `users` is a reference table: its trigger ran on the workers' copies and
-- could not write list_versions, a distributed table ("cannot execute a distributed query from a
-- query on a shard"), which refused every update of a user.
DROP TRIGGER IF EXISTS users_email_drivers_version ON users;

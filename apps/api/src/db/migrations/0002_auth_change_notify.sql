-- Every API instance caches who a token's user is (role, permissions, status). Any change to a
-- user, role or organization notifies all instances on commit, so a deactivated user or a
-- revoked permission takes effect at once everywhere. Payload: the user id, or '*' for all.
CREATE OR REPLACE FUNCTION notify_auth_change() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('auth_change', COALESCE(NEW.id, OLD.id)::text);
  ELSE
    PERFORM pg_notify('auth_change', '*');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_auth_change AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER roles_auth_change AFTER UPDATE OR DELETE ON roles FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER organizations_auth_change AFTER UPDATE OR DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION notify_auth_change();

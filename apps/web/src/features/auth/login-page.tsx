import { useNavigate } from 'react-router';
import { routerLink } from '../../components/router-link.tsx';
import { homePath } from '../../lib/auth-store.ts';
import { startSession } from '../../lib/session.ts';
import { LoginForm } from './login-form.tsx';

/** Spec section 2, login screen, inside the app (after a logout): the form the sign-in page's own bundle shows too. */
export default function LoginPage() {
  const navigate = useNavigate();
  return (
    <LoginForm
      link={routerLink}
      onSignedIn={async (res) => {
        await startSession(res);
        await navigate(homePath(res.user), { replace: true });
      }}
    />
  );
}

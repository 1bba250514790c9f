// The sign-in page's words (shell, auth, the fields and errors it shows): the sign-in page loads only
// these (issue 67); en.ts takes them in, so each word has one place.

export const signInEn = {
  shell: {
    lightTheme: 'Switch to light theme',
    darkTheme: 'Switch to dark theme',
    home: 'Fleetline home',
    getStarted: 'Get started',
  },
  auth: {
    undoTitle: 'Undo the change of e-mail',
    undoIntro:
      'Someone changed the e-mail of your Fleetline account. Put your address back: every session is signed out, and you choose a new password with the link we send to it.',
    undoButton: 'Put my e-mail back',
    undone: 'Your e-mail is back',
    undoneBody:
      'Your account signs in with {{email}} again. Every session was signed out. We sent a link to {{email}} to choose a new password: it is valid for one hour.',
    pageTitle: '{{title}} · Fleetline',
    logIn: 'Log in',
    logInLink: 'Log In',
    welcome: 'Welcome back',
    intro: 'Log in to see your fleet, drivers and hours of service.',
    seeding: 'Preparing demo data',
    seedingPercent: 'Preparing demo data ({{percent}} %)',
    seedingBody: "This is the server's first start. The demo fleet's accounts can log in in a minute; this page updates by itself.",
    seedingFailed: 'The demo data is still being prepared: its accounts can log in once it is ready.',
    failed: 'The email or password is incorrect.',
    emailPlaceholder: 'you@company.com',
    passwordPlaceholder: 'min 8 characters',
    showPassword: 'Show or hide password',
    forgotten: 'Forgotten Password',
    newHere: 'New here?',
    createAccount: 'Create an account',
    learnMore: 'Learn more',
    resetTitle: 'Reset password',
    resetIntro: 'Enter the email you log in with and we will send you a link to choose a new password.',
    checkInbox: 'Check your inbox',
    resetSent: '{{message}} The link is valid for one hour.',
    sendLink: 'Send reset link',
    newTitle: 'Create new password',
    newIntro: 'Choose a new password for your account. Every other session is signed out.',
    changed: 'Password changed',
    changedBody: 'You can now log in with your new password.',
    confirmNew: 'Confirm new password',
    saveNew: 'Save new password',
  },
  fields: {
    email: 'Email',
    password: 'Password',
  },
  validation: {
    required: '{{label}} is a required field',
    email: '{{label}} must be a valid email address',
    max: '{{label}} must be at most {{max}} characters',
  },
  server: {
    network: 'No connection to the server. Check the network and try again.',
    unknown: 'Something went wrong. Try again.',
    tooMany: 'Too many requests, slow down and try again shortly',
    tooManySignIns: 'Too many failed sign-in attempts. Try again in 15 minutes or reset your password.',
  },
};

/** The shape of every language's sign-in words. */
export type SignInCatalogue = { [K in keyof typeof signInEn]: { [L in keyof (typeof signInEn)[K]]: string } };

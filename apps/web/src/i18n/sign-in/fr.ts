import type { SignInCatalogue } from './en.ts';

// The sign-in page's words in French (see ./en.ts); fr.ts takes them in.

export const signInFr: SignInCatalogue = {
  shell: {
    lightTheme: 'Passer au thème clair',
    darkTheme: 'Passer au thème sombre',
    home: 'Accueil Fleetline',
    getStarted: 'Commencer',
  },
  auth: {
    undoTitle: 'Annuler le changement d’e-mail',
    undoIntro:
      'Quelqu’un a changé l’e-mail de votre compte Fleetline. Reprenez votre adresse : toutes les sessions sont fermées, et vous choisissez un nouveau mot de passe avec le lien que nous y envoyons.',
    undoButton: 'Reprendre mon e-mail',
    undone: 'Votre e-mail est rétabli',
    undoneBody:
      'Votre compte se connecte de nouveau avec {{email}}. Toutes les sessions ont été fermées. Nous avons envoyé à {{email}} un lien pour choisir un nouveau mot de passe : il est valable une heure.',
    pageTitle: '{{title}} · Fleetline',
    logIn: 'Se connecter',
    logInLink: 'Se connecter',
    welcome: 'Bon retour',
    intro: 'Connectez-vous pour voir votre flotte, vos conducteurs et leurs heures de service.',
    seeding: 'Préparation des données de démonstration',
    seedingPercent: 'Préparation des données de démonstration ({{percent}} %)',
    seedingBody:
      'C’est le premier démarrage du serveur. Les comptes de la flotte de démonstration pourront se connecter dans une minute; cette page se met à jour d’elle-même.',
    seedingFailed: 'Les données de démonstration sont encore en préparation : leurs comptes pourront se connecter une fois prêtes.',
    failed: 'Le courriel ou le mot de passe est incorrect.',
    emailPlaceholder: 'vous@entreprise.com',
    passwordPlaceholder: '8 caractères minimum',
    showPassword: 'Afficher ou masquer le mot de passe',
    forgotten: 'Mot de passe oublié',
    newHere: 'Nouveau?',
    createAccount: 'Créer un compte',
    learnMore: 'En savoir plus',
    resetTitle: 'Réinitialiser le mot de passe',
    resetIntro: 'Entrez le courriel avec lequel vous vous connectez et nous vous enverrons un lien pour choisir un nouveau mot de passe.',
    checkInbox: 'Vérifiez votre boîte de réception',
    resetSent: '{{message}} Le lien est valide pendant une heure.',
    sendLink: 'Envoyer le lien',
    newTitle: 'Créer un nouveau mot de passe',
    newIntro: 'Choisissez un nouveau mot de passe pour votre compte. Toutes les autres sessions sont fermées.',
    changed: 'Mot de passe changé',
    changedBody: 'Vous pouvez maintenant vous connecter avec votre nouveau mot de passe.',
    confirmNew: 'Confirmer le nouveau mot de passe',
    saveNew: 'Enregistrer le nouveau mot de passe',
  },
  fields: {
    email: 'Courriel',
    password: 'Mot de passe',
  },
  validation: {
    required: '{{label}} : champ obligatoire',
    email: '{{label}} : entrez une adresse courriel valide',
    max: '{{label}} : au plus {{max}} caractères',
  },
  server: {
    network: 'Aucune connexion au serveur. Vérifiez le réseau et réessayez.',
    unknown: 'Une erreur s’est produite. Réessayez.',
    tooMany: 'Trop de demandes : attendez un moment et réessayez',
    tooManySignIns: 'Trop de tentatives échouées. Réessayez dans 15 minutes ou réinitialisez votre mot de passe.',
  },
};
